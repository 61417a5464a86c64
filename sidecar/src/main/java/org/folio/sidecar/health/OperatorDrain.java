package org.folio.sidecar.health;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Singleton;

/**
 * Readiness failed on an operator's request, as Envoy's {@code /healthcheck/fail} and {@code /healthcheck/ok}: the
 * pod leaves its Service and keeps serving what still reaches it, until it is asked back. Unlike a stop
 * ({@code edge.Drain}) no connection is closed.
 */
@Singleton
public class OperatorDrain {

  private volatile boolean failed;

  OperatorDrain(MeterRegistry registry) {
    Gauge.builder("sidecar.readiness.failed.by.operator", this, drain -> drain.failed ? 1 : 0)
      .description("1 while an operator has failed readiness through the admin API").register(registry);
  }

  /** Returns whether readiness was failed already. */
  public boolean fail() {
    boolean was = failed;
    failed = true;
    return was;
  }

  /** Returns whether readiness had been failed. */
  public boolean restore() {
    boolean was = failed;
    failed = false;
    return was;
  }

  public boolean failed() {
    return failed;
  }
}
