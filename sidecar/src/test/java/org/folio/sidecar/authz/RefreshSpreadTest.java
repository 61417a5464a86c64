package org.folio.sidecar.authz;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.folio.sidecar.support.TestCacheConfig;
import org.folio.sidecar.testkit.FakeTicker;
import org.folio.sidecar.token.VerifiedToken;
import org.junit.jupiter.api.Test;

/**
 * Keycloak's load from re-checks stays flat: keys met together at a cold start are re-checked spread over the
 * refresh period, not in one wave per period, and a key nobody uses is never re-checked. On a fake clock with the
 * production lifetimes (allow TTL 10m, refresh-after 9m). Before the spread, every key of the cold start was
 * re-checked in the same 10 s of each period.
 */
class RefreshSpreadTest {

  private static final int KEYS = 2000;
  private static final Duration USE_EVERY = Duration.ofSeconds(10);

  private final FakeTicker ticker = new FakeTicker();
  private final long start = ticker.read();
  /** Seconds since the start at which Keycloak was asked, per permission. */
  private final Map<String, List<Long>> asked = new HashMap<>();
  private final DecisionCache cache = new DecisionCache(request -> {
    asked.computeIfAbsent(request.permission(), p -> new ArrayList<>())
      .add((ticker.read() - start) / 1_000_000_000L);
    return Future.succeededFuture(Decision.PERMIT);
  }, TestCacheConfig.defaults(100_000), new SimpleMeterRegistry(), ticker, Runnable::run, new Random(7)::nextLong);
  private final Duration refreshAfter = TestCacheConfig.defaults(1).refreshAfter();

  private static AuthorizationRequest request(String permission) {
    return new AuthorizationRequest("t1", permission,
      new VerifiedToken("raw", "t1", "app", "u1", "u1", "s1", Long.MAX_VALUE, 0));
  }

  @Test
  void keysMetTogetherAreRecheckedSpreadOverThePeriod() {
    // Given 2000 keys first met in the same second, each used again every 10 s for three refresh periods
    long seconds = 3 * refreshAfter.toSeconds();
    for (long second = 0; second < seconds; second++) {
      for (int key = 0; key < KEYS; key++) {
        if (second == 0 || (second + key) % USE_EVERY.toSeconds() == 0) {
          cache.decide(request("/p" + key + "#GET"));
        }
      }
      ticker.advance(Duration.ofSeconds(1));
    }

    // Then after the first period no 10-s window carries more than twice the mean rate of re-checks
    var perWindow = new long[(int) (seconds / 10)];
    long rechecks = 0;
    for (var times : asked.values()) {
      for (long time : times.subList(1, times.size())) {
        perWindow[(int) (time / 10)]++;
        rechecks += time >= refreshAfter.toSeconds() ? 1 : 0;
      }
    }
    int firstWindow = (int) (refreshAfter.toSeconds() / 10);
    double mean = (double) rechecks / (perWindow.length - firstWindow);
    long peak = 0;
    for (int window = firstWindow; window < perWindow.length; window++) {
      peak = Math.max(peak, perWindow[window]);
    }
    assertThat(peak).as("peak re-checks per 10 s against the mean of %.1f", mean).isLessThanOrEqualTo(
      Math.round(2 * mean));
    // And the mean is no more than one re-check per key per period: spreading did not add calls
    assertThat(mean).isLessThanOrEqualTo(KEYS * 10.0 / refreshAfter.toSeconds());
    // And every key was asked once at the start, then re-checked about once per period
    assertThat(asked).hasSize(KEYS);
    assertThat(asked.values()).allSatisfy(times -> assertThat(times).hasSizeBetween(3, 4));
  }

  @Test
  void aKeyNobodyUsesIsNeverRechecked() {
    // Given one key used every 10 s and one used once at the start
    cache.decide(request("/idle#GET"));
    for (long second = 0; second < 3 * refreshAfter.toSeconds(); second += USE_EVERY.toSeconds()) {
      cache.decide(request("/busy#GET"));
      ticker.advance(USE_EVERY);
    }

    // Then Keycloak was asked about the idle key only when it was first met, the busy one once per period or so
    assertThat(asked.get("/idle#GET")).containsExactly(0L);
    assertThat(asked.get("/busy#GET")).hasSizeBetween(3, 5);
  }
}
