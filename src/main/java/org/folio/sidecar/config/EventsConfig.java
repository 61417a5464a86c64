package org.folio.sidecar.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** Platform events from Kafka. Optional: without KAFKA_HOST the sidecar relies on periodic refreshes. */
@ConfigMapping(prefix = "events")
public interface EventsConfig {

  /** KAFKA_HOST: the broker host; unset disables event consumption. */
  Optional<String> kafkaHost();

  /** KAFKA_PORT. */
  @WithDefault("9092")
  int kafkaPort();

  /** ENV: topic prefix ({@code <ENV>.discovery}, {@code <ENV>.entitlement}, {@code <ENV>.<tenant>.mod-login-keycloak.logout}). */
  @WithDefault("folio")
  String env();

  /** SIDECAR_NAME: consumer group prefix; every start gets its own group, so every instance sees every event. */
  Optional<String> sidecarName();

  /** SIDECAR_KAFKA_TOPIC_REFRESH_INTERVAL: how soon a newly created tenant logout topic is subscribed. */
  @WithDefault("5s")
  Duration topicRefreshInterval();
}
