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

  /**
   * SIDECAR_KAFKA_FETCH_MAX_WAIT: how long the broker holds the consumer's fetch while there is nothing to read
   * (Kafka's {@code fetch.max.wait.ms}, 500 ms by default there; {@code KAFKA_FETCH_MAX_WAIT_MS} wins when set). An
   * event ends the wait at once, so a longer one delays nothing; it only spares an idle sidecar two fetches a
   * second. Below the client's {@code request.timeout.ms} (30 s).
   */
  @WithDefault("5s")
  Duration fetchMaxWait();

  /**
   * SIDECAR_READINESS_REQUIRES_KAFKA: whether a lost broker makes the sidecar unready, as upstream's does. Off by
   * default: a broker outage would take every module out of service while the sidecar serves; events wait.
   */
  @WithDefault("false")
  boolean readinessRequiresKafka();

  /** {@code <ENV>.discovery}: DISCOVERY_SECURITY_PROTOCOL and DISCOVERY_TLS_*. */
  Channel discovery();

  /** {@code <ENV>.entitlement}: ENTITLEMENT_SECURITY_PROTOCOL and ENTITLEMENT_TLS_*. */
  Channel entitlement();

  /** The logout topics: LOGOUT_SECURITY_PROTOCOL and LOGOUT_TLS_*. */
  Channel logout();

  /**
   * How one kind of topic is reached, by upstream's per-topic variables. Unset values fall back to the shared
   * Kafka client settings ({@code KAFKA_SECURITY_PROTOCOL}, {@code KAFKA_SSL_*}, {@code KAFKA_SASL_*}: any
   * Kafka client property as {@code KAFKA_<PROPERTY>}).
   */
  interface Channel {
    /** {@code <CH>_SECURITY_PROTOCOL}: PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL. */
    Optional<String> securityProtocol();

    Optional<String> tlsKeyPassword();

    Optional<String> tlsKeystorePath();

    Optional<String> tlsKeystorePassword();

    Optional<String> tlsTruststorePath();

    Optional<String> tlsTruststorePassword();

    Optional<String> tlsTruststoreType();

    /** {@code <CH>_TLS_TRUSTSTORE_CERTIFICATES}: PEM certificates given inline. */
    Optional<String> tlsTruststoreCertificates();
  }
}
