package org.folio.sidecar.authz;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import java.lang.management.ManagementFactory;
import org.folio.sidecar.testkit.FakeTicker;
import java.util.Map;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.testkit.ConfigMappings;
import org.folio.sidecar.token.VerifiedToken;
import org.junit.jupiter.api.Test;

/**
 * A million logouts of distinct users against a full cache leave the indexes no bigger than the cache (the ended
 * sessions' bound is EndedSessionsTest's).
 */
class DecisionCacheSoakTest {

  private static final int CACHE_SIZE = 10_000;
  private static final int LOGOUTS = 1_000_000;

  @Test
  void aMillionLogoutsLeaveTheIndexesAtTheCachesSize() {
    var cache = new DecisionCache(request -> Future.succeededFuture(Decision.PERMIT),
      ConfigMappings.load(AuthzCacheConfig.class, Map.of("sidecar.authz-cache.max-size", String.valueOf(CACHE_SIZE),
        "sidecar.authz-cache.ended-sessions-max-size", String.valueOf(CACHE_SIZE))),
      new SimpleMeterRegistry(), new FakeTicker(), Runnable::run);
    for (int i = 0; i < CACHE_SIZE; i++) {
      cache.decide(request(i, "/fill#GET"));
    }
    long before = usedHeap();

    for (int i = 0; i < LOGOUTS; i++) {
      // each session is used once (an entry that evicts another), then logged out
      int session = CACHE_SIZE + i;
      cache.decide(request(session, "/soak#GET"));
      assertThat(cache.invalidateUser("t" + session % 60, "u" + session)).isEqualTo(1);
    }

    long after = usedHeap();
    var cached = cache.cachedKeys();
    System.out.printf("soak: %d logouts; cache %d entries; indexes %d keys; heap %d KiB before, %d KiB after%n",
      LOGOUTS, cached.size(), cache.indexedKeys(true, true).size(), before / 1024, after / 1024);
    assertThat(cache.indexedKeys(true, false)).isEqualTo(cached);
    assertThat(cache.indexedKeys(true, true)).hasSizeLessThanOrEqualTo(CACHE_SIZE);
    // what the logouts leave behind must not grow with their number (slack for the test JVM's other threads)
    assertThat(after - before).isLessThan(32L * 1024 * 1024);
  }

  private static AuthorizationRequest request(int session, String permission) {
    var tenant = "t" + session % 60;
    return new AuthorizationRequest(tenant, permission,
      new VerifiedToken("raw", tenant, "app", "u" + session, "u" + session, "s" + session, Long.MAX_VALUE, 0));
  }

  private static long usedHeap() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
