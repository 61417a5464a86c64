package org.folio.sidecar.authz;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import java.util.Map;
import java.util.UUID;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.testkit.ConfigMappings;
import org.folio.sidecar.testkit.FakeTicker;
import org.folio.sidecar.token.VerifiedToken;
import org.junit.jupiter.api.Test;

/** The decision cache holds what its heap share allows, and never more entries than its count variable. */
class DecisionCacheBudgetTest {

  @Test
  void aOneMebibyteShareHoldsAboutAThousandDecisionsWhateverTheCount() {
    var registry = new SimpleMeterRegistry();
    var cache = filled(share(1 << 20), 100_000, registry, 10_000);

    long held = cache.cachedKeys().size();
    double weight = registry.get("sidecar.cache.weight").tag("cache", "decisions").gauge().value();
    assertThat(held).isBetween(500L, 1_100L);
    assertThat(weight).isPositive().isLessThanOrEqualTo(1 << 20);
  }

  @Test
  void theCountStaysAnUpperLimitUnderALargeShare() {
    var cache = filled(share(64L << 20), 100, new SimpleMeterRegistry(), 1_000);

    assertThat(cache.cachedKeys()).hasSize(100);
  }

  /** The heap share that gives {@code bytes} in this JVM. */
  private static double share(long bytes) {
    return (double) bytes / Runtime.getRuntime().maxMemory();
  }

  private static DecisionCache filled(double share, long maxSize, SimpleMeterRegistry registry, int entries) {
    AuthzCacheConfig config = ConfigMappings.load(AuthzCacheConfig.class, Map.of(
      "sidecar.authz-cache.heap-share", String.valueOf(share), "sidecar.authz-cache.max-size",
      String.valueOf(maxSize)));
    var cache = new DecisionCache(request -> Future.succeededFuture(Decision.PERMIT), config, registry,
      new FakeTicker(), Runnable::run);
    for (int i = 0; i < entries; i++) {
      var token = new VerifiedToken("raw", "diku", "diku-application", "kc-user", UUID.randomUUID().toString(),
        UUID.randomUUID().toString(), 0, 0);
      cache.decide(new AuthorizationRequest("diku", "/inventory/items/{id}#GET", token));
    }
    return cache;
  }
}
