package org.folio.sidecar.authz;

import org.folio.sidecar.token.VerifiedToken;

/**
 * What a decision depends on, and nothing that changes when a token is refreshed: the tenant, the client
 * ({@code azp}), the user and login session for user tokens, and the permission. Never {@code exp},
 * {@code iat}, {@code jti} or the token itself. Every service token of a tenant's module-access client shares
 * one entry per permission, while another client's token cannot reuse its grant.
 */
public record DecisionKey(String tenant, String clientId, String userId, String sessionId, String permission) {

  public static DecisionKey of(String tenant, String permission, VerifiedToken token) {
    return new DecisionKey(tenant, token.clientId(), token.userId(), token.sessionId(), permission);
  }
}
