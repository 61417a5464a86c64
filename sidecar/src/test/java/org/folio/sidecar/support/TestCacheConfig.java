package org.folio.sidecar.support;

import java.util.Map;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.testkit.ConfigMappings;

/** The cache's documented defaults with a given size, for tests that build a cache without Quarkus. */
public final class TestCacheConfig {

  private TestCacheConfig() {
  }

  public static AuthzCacheConfig defaults(long maxSize) {
    return ConfigMappings.load(AuthzCacheConfig.class, Map.of("sidecar.authz-cache.max-size", String.valueOf(maxSize)));
  }
}
