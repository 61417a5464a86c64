package org.folio.sidecar.authz;

import io.vertx.core.Future;

/**
 * Answers authorization questions. The Keycloak implementation asks every time; a caching implementation
 * decorates it. A failed future carries a {@link org.folio.sidecar.error.SidecarError} (e.g. 503 when Keycloak
 * cannot be reached): failures are never decisions.
 */
public interface AuthorizationDecider {

  Future<Decision> decide(AuthorizationRequest request);
}
