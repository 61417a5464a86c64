package org.folio.sidecar.authz;

/** Keycloak's answer to "may this caller use this permission". */
public enum Decision {
  /** Granted: forward the request. */
  PERMIT,
  /** Not granted: 403. */
  DENY,
  /** Keycloak does not accept the token (logged out, revoked): 401. */
  UNAUTHENTICATED
}
