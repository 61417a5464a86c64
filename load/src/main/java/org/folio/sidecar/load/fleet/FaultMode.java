package org.folio.sidecar.load.fleet;

/**
 * How something a sidecar depends on answers while the fault run has a fault on: a relay in front of a stub module
 * or the secret store, or the managers' lookup of a tenant's modules ({@link StubModules#moduleLookups}).
 */
public enum FaultMode {
  /** Relays every request to the target. */
  PASS,
  /** Not listening: new connections are refused and open ones closed, as when the process was killed. */
  DOWN,
  /** Relays each request only after a delay: slower than the sidecar's request timeout. */
  SLOW,
  /** Answers 401 to everything, as a target that refuses every token. */
  UNAUTHORIZED,
  /** Answers 503 to everything: a secret store that is unavailable. */
  UNAVAILABLE
}
