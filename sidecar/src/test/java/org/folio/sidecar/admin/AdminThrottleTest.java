package org.folio.sidecar.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.folio.sidecar.testkit.FakeTicker;
import org.junit.jupiter.api.Test;

/** The admin credential's back-off per address, on a ticker the test moves. */
class AdminThrottleTest {

  private static final String GUESSER = "10.0.0.7";

  private final FakeTicker ticker = new FakeTicker();
  private final AdminThrottle throttle = new AdminThrottle(3, Duration.ofSeconds(1), Duration.ofSeconds(10), 100,
    ticker);

  @Test
  void pastItsBudgetAnAddressWaitsTwiceAsLongAfterEachWrongCredentialUpToTheCap() {
    for (int i = 0; i < 3; i++) {
      assertThat(throttle.waitOf(GUESSER)).isZero();
      throttle.failed(GUESSER);
    }
    assertThat(throttle.waitOf(GUESSER)).isZero();

    // the 4th: 1 s, then 2, 4, 8, and 10 s from then on
    for (long seconds : new long[]{1, 2, 4, 8, 10, 10}) {
      throttle.failed(GUESSER);
      assertThat(throttle.waitOf(GUESSER)).isEqualTo(Duration.ofSeconds(seconds));
      ticker.advance(Duration.ofSeconds(seconds).minusMillis(1));
      assertThat(throttle.waitOf(GUESSER)).isEqualTo(Duration.ofMillis(1));
      ticker.advance(Duration.ofMillis(1));
      assertThat(throttle.waitOf(GUESSER)).isZero();
    }
    // another address is not slowed down
    assertThat(throttle.waitOf("10.0.0.8")).isZero();
  }

  @Test
  void theRightCredentialOrAQuietMaxBackoffAfterTheWaitForgetsTheFailures() {
    for (int i = 0; i < 4; i++) {
      throttle.failed(GUESSER);
    }
    assertThat(throttle.waitOf(GUESSER)).isEqualTo(Duration.ofSeconds(1));
    throttle.succeeded(GUESSER);
    assertThat(throttle.waitOf(GUESSER)).isZero();
    throttle.failed(GUESSER);
    assertThat(throttle.waitOf(GUESSER)).as("the budget is whole again").isZero();

    for (int i = 0; i < 3; i++) {
      throttle.failed(GUESSER);
    }
    assertThat(throttle.waitOf(GUESSER)).isEqualTo(Duration.ofSeconds(1));
    // still remembered just before the wait plus the cap is over: the next wrong one waits 2 s
    ticker.advance(Duration.ofSeconds(1 + 10).minusMillis(1));
    throttle.failed(GUESSER);
    assertThat(throttle.waitOf(GUESSER)).isEqualTo(Duration.ofSeconds(2));
    // quiet for the wait and the cap: forgotten
    ticker.advance(Duration.ofSeconds(2 + 10).plusMillis(1));
    throttle.failed(GUESSER);
    assertThat(throttle.waitOf(GUESSER)).isZero();
  }

  @Test
  void aHugeNumberOfFailuresNeverOverflowsTheWait() {
    for (int i = 0; i < 200; i++) {
      throttle.failed(GUESSER);
    }
    assertThat(throttle.waitOf(GUESSER)).isEqualTo(Duration.ofSeconds(10));
  }
}
