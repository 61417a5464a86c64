package org.folio.sidecar.authz;

import org.folio.sidecar.token.VerifiedToken;

/**
 * What a decision depends on, and nothing that changes when a token is refreshed or a user logs in again: the
 * tenant, the client ({@code azp}), the user for user tokens, and the permission. Never the session, {@code exp},
 * {@code iat}, {@code jti} or the token itself: FOLIO's policies grant users (through roles), never sessions, so a
 * user's next session is served what Keycloak granted the user, and a session that ended is refused before the
 * decision is looked at ({@link EndedSessions}). Every service token of a tenant's module-access client shares
 * one entry per permission, while another client's token cannot reuse its grant.
 */
public record DecisionKey(String tenant, String clientId, String userId, String permission) {

  public static DecisionKey of(String tenant, String permission, VerifiedToken token) {
    return new DecisionKey(tenant, token.clientId(), token.userId(), permission);
  }
}
