package org.folio.sidecar.authz;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.UUID;
import org.folio.sidecar.support.TestCacheConfig;
import org.folio.sidecar.token.VerifiedToken;
import org.junit.jupiter.api.Test;

/**
 * Memory of a full default-size cache (100k entries), measured on the heap. The budget in
 * docs/authorization-cache.md is what operators size pods by, so exceeding it is a visible regression.
 */
class DecisionCacheMemoryTest {

  static final int ENTRIES = 100_000;
  static final long BUDGET_BYTES_PER_ENTRY = 1280;

  @Test
  void hundredThousandEntriesStayWithinTheDocumentedBudget() {
    // Given 60 tenants, sessions of users each asking for 20 permissions, every string a fresh copy as a parse makes
    var permissions = new ArrayList<String>();
    for (int p = 0; p < 20; p++) {
      permissions.add("/inventory/items/{id}/part" + p + "#GET");
    }
    var cache = new DecisionCache(request -> Future.succeededFuture(Decision.PERMIT), TestCacheConfig.defaults(ENTRIES),
      new SimpleMeterRegistry(),
      Ticker.systemTicker());

    // When the cache is filled to its default bound
    for (int i = 0; i < ENTRIES; i++) {
      var tenant = new String("tenant" + (i % 60));
      var token = new VerifiedToken("raw", tenant, new String("tenant-login-application"), "user",
        UUID.randomUUID().toString(), UUID.randomUUID().toString(), 0, 0);
      cache.decide(new AuthorizationRequest(tenant, permissions.get(i % 20), token));
    }
    long filled = usedHeap();
    assertThat(cache.invalidateTenant("tenant7")).isGreaterThan(1000);
    cache = null;
    // what dropping the cache frees is what it held; the test JVM's other threads (Quarkus apps, Kafka, the
    // Keycloak hop) allocate meanwhile, which can only make this smaller, never push it over the budget
    long bytesPerEntry = (filled - usedHeap()) / ENTRIES;

    // Then it held every entry in no more than the budget
    System.out.printf("decision cache: %d entries, %d bytes per entry%n", ENTRIES, bytesPerEntry);
    assertThat(bytesPerEntry).isBetween(1L, BUDGET_BYTES_PER_ENTRY);
  }

  private static long usedHeap() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
