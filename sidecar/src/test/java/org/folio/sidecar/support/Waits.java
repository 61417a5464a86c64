package org.folio.sidecar.support;

import java.time.Duration;

/** Bounds of tests' waits. */
public final class Waits {

  /**
   * How long a test waits for a state the sidecar reaches by itself (a probe's next round, an event applied, a
   * log line written, a background re-check): never a latency claim, only a bound against a hang, so generous
   * enough for a machine busy with other builds. A wait that succeeds returns as soon as the state is there.
   */
  public static final Duration STATE = Duration.ofMinutes(2);

  private Waits() {
  }
}
