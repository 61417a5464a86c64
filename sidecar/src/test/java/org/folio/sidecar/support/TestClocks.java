package org.folio.sidecar.support;

import com.github.benmanes.caffeine.cache.Ticker;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The sidecar's time in Quarkus tests: real time plus an offset a test moves forward with {@link #advance},
 * instead of waiting. Replaces the default {@code Clocks} beans; each application start (its own class loader,
 * shared with the test class) starts at offset zero, and test classes sharing an application share its offset,
 * so a test that needs a token fresh for the sidecar dates it by {@link #epochSecond()}.
 */
@Singleton
public class TestClocks {

  private static final AtomicLong OFFSET_NANOS = new AtomicLong();

  /** Moves the sidecar's ticker and clock forward; Keycloak's own clock does not move. */
  public static void advance(Duration duration) {
    OFFSET_NANOS.addAndGet(duration.toNanos());
  }

  /** The sidecar's wall time in epoch seconds: where a test's token must start to be fresh for the sidecar. */
  public static long epochSecond() {
    return Instant.now().plusNanos(OFFSET_NANOS.get()).getEpochSecond();
  }

  @Produces
  @Singleton
  Ticker ticker() {
    return () -> System.nanoTime() + OFFSET_NANOS.get();
  }

  @Produces
  @Singleton
  Clock clock() {
    return new Clock() {
      @Override
      public ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(ZoneId zone) {
        return this;
      }

      @Override
      public Instant instant() {
        return Instant.now().plusNanos(OFFSET_NANOS.get());
      }
    };
  }
}
