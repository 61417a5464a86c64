package org.folio.sidecar.authz;

/**
 * A caching {@link AuthorizationDecider} that can forget decisions: a logged-out session, a user logged out
 * everywhere, a tenant whose permissions or entitlement changed. Each call returns how many entries it dropped.
 */
public interface AuthorizationCache extends AuthorizationDecider {

  int invalidateSession(String tenant, String sessionId);

  int invalidateUser(String tenant, String userId);

  int invalidateTenant(String tenant);
}
