package org.folio.sidecar.authz;

import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A caching {@link AuthorizationDecider} that can forget decisions: a logged-out session, a user logged out
 * everywhere, a tenant whose permissions or entitlement changed, or everything. Each call returns how many entries
 * it dropped.
 */
public interface AuthorizationCache extends AuthorizationDecider {

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
