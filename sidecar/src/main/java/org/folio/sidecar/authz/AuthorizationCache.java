package org.folio.sidecar.authz;

import java.util.Optional;
import org.folio.sidecar.token.VerifiedToken;
import org.jspecify.annotations.Nullable;

/**
 * A caching {@link AuthorizationDecider} that learns of ended sessions (a logout, a user logged out everywhere)
 * and can forget decisions: a user's, a tenant's whose permissions or entitlement changed, or everything. Each
 * invalidation returns how many entries it dropped.
 */
public interface AuthorizationCache extends AuthorizationDecider {

  /** A logout event: the session's tokens are refused from now on. */
  void sessionEnded(String tenant, String sessionId);

  /**
   * A logout-all event written at {@code atEpochMillis}: every session the user had then has ended. Returns the
   * entries dropped.
   */
  int userLoggedOut(String tenant, String userId, long atEpochMillis);

  /**
   * Whether the token's session is known to have ended (a logout event, Keycloak's answer that it is not active,
   * a logout-all of its user): for endpoints that ask only for a valid token, which Keycloak is not asked about.
   */
  boolean sessionEnded(VerifiedToken token);

  int invalidateSession(String tenant, String sessionId);

  int invalidateUser(String tenant, String userId);

  int invalidateTenant(String tenant);

  int invalidateAll();

  /**
   * The cached decisions of a tenant, or of one user or session in it (at most {@code limit} of them, and how many
   * there are); empty when the cache keeps no identity index to answer with (legacy mode).
   */
  Optional<CacheLookup> lookup(String tenant, @Nullable String userId, @Nullable String sessionId, int limit);
}
