package org.folio.sidecar.time;

import java.time.Duration;

/**
 * Runs a task after a delay, for deadlines that end a wait (not work): Vert.x timers in the sidecar, timers a
 * test fires by hand in unit tests, so that "Keycloak is slow" is a state a test sets, not a time it waits for.
 */
@FunctionalInterface
public interface Timers {

  /** Runs {@code task} once after {@code delay}; running the returned action first cancels it. */
  Runnable schedule(Duration delay, Runnable task);
}
