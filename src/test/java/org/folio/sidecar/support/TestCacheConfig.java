package org.folio.sidecar.support;

import java.time.Duration;
import java.util.Optional;
import org.folio.sidecar.config.AuthzCacheConfig;

/** The cache's documented defaults, for tests and benchmarks that build a cache without Quarkus. */
public final class TestCacheConfig {

  private TestCacheConfig() {
  }

  public static AuthzCacheConfig defaults(long maxSize) {
    return new AuthzCacheConfig() {
      public Mode mode() { return Mode.OPTIMIZED; }
      public long maxSize() { return maxSize; }
      public Duration allowTtl() { return Duration.ofMinutes(5); }
      public Duration denyTtl() { return Duration.ofSeconds(10); }
      public Duration refreshAfter() { return Duration.ofMinutes(4); }
      public Duration maxStaleness() { return Duration.ofMinutes(10); }
      public long legacyMaxSize() { return 250; }
      public long legacyTtlOffset() { return 500; }
      public boolean adminEnabled() { return false; }
      public Optional<String> adminToken() { return Optional.empty(); }
    };
  }
}
