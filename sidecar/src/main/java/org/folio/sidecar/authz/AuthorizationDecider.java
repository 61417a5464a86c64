package org.folio.sidecar.authz;

import io.vertx.core.Future;

/**
 * Answers authorization questions. The Keycloak implementation asks every time; a caching implementation
 * decorates it. A failed future carries a {@link org.folio.sidecar.error.SidecarError} (e.g. 503 when Keycloak
 * cannot be reached): failures are never decisions.
 */
public interface AuthorizationDecider {

  Future<Decision> decide(AuthorizationRequest request);

  /**
   * The same, running {@code sent} once the question has left this sidecar for Keycloak: until then a late answer
   * is this sidecar being busy, not Keycloak being slow. A decider that queues nothing has sent it at once.
   */
  default Future<Decision> decide(AuthorizationRequest request, Runnable sent) {
    sent.run();
    return decide(request);
  }
}
