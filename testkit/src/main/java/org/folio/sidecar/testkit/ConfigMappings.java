package org.folio.sidecar.testkit;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.Map;

/**
 * A {@code @ConfigMapping} built without Quarkus, for unit tests and benchmarks: its documented defaults (the
 * {@code @WithDefault} values the application runs with) under the given properties, so no test restates them.
 */
public final class ConfigMappings {

  private ConfigMappings() {
  }

  public static <T> T load(Class<T> mapping, Map<String, String> properties) {
    return new SmallRyeConfigBuilder()
      .withMapping(mapping)
      .withConverter(Duration.class, 200, new DurationConverter())
      .withSources(new PropertiesConfigSource(properties, "test", 500))
      .build()
      .getConfigMapping(mapping);
  }
}
