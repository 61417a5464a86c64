package org.folio.sidecar.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

/** What the health body shows, with upstream's filter variables and defaults. */
@ConfigMapping(prefix = "health-check.filter")
public interface HealthConfig {

  /** HEALTH_CHECK_FILTER_NO_CHECKS_ENABLED: the body is {@code {"status":...}} alone, no {@code checks}. */
  @WithName("no-checks.enabled")
  @WithDefault("true")
  boolean noChecks();

  /** HEALTH_CHECK_FILTER_KAFKA_SIMPLIFIED_ENABLED: the Kafka check without {@code data}. */
  @WithName("kafka-simplified.enabled")
  @WithDefault("false")
  boolean kafkaSimplified();

  /** HEALTH_CHECK_FILTER_MODULE_SIMPLIFIED_ENABLED: the module check without {@code data}. */
  @WithName("module-simplified.enabled")
  @WithDefault("false")
  boolean moduleSimplified();
}
