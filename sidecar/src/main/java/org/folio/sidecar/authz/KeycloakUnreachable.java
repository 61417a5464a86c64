package org.folio.sidecar.authz;

import org.folio.sidecar.error.SidecarError;
import org.jspecify.annotations.Nullable;

/**
 * Keycloak did not answer: no connection, no answer in time once it had the call, or a 5xx. Only this lets a grant
 * past its TTL serve stale. A call that never left this sidecar's own queue (too many at once, or its deadline ran
 * out while it waited for a slot) is this sidecar being busy, not Keycloak being down, and a session Keycloak
 * answered for is decided by that answer (docs/authorization-cache.md, "Stale grants"). Stackless: an expected
 * outcome; it keeps the transport failure as its cause, so the error log names that.
 */
final class KeycloakUnreachable extends RuntimeException {

  private KeycloakUnreachable(@Nullable Throwable cause) {
    super("Keycloak did not answer", cause, false, false);
  }

  /** The caller's 503, marked as one that lets a grant past its TTL serve stale. */
  static SidecarError error(String reason, @Nullable Throwable cause) {
    return SidecarError.keycloakUnavailable(reason).causedBy(new KeycloakUnreachable(cause));
  }

  static boolean is(Throwable error) {
    return error instanceof SidecarError sidecar && sidecar.getCause() instanceof KeycloakUnreachable;
  }
}
