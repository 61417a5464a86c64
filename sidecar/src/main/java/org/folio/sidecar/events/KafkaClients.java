package org.folio.sidecar.events;

import jakarta.inject.Singleton;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import org.eclipse.microprofile.config.Config;
import org.folio.sidecar.config.EventsConfig;
import org.jspecify.annotations.Nullable;

/**
 * The Kafka client settings of each kind of topic: the broker, the shared client properties an operator sets as
 * {@code KAFKA_<PROPERTY>} (e.g. {@code KAFKA_SECURITY_PROTOCOL}, {@code KAFKA_SASL_JAAS_CONFIG}) or
 * {@code kafka.<property>}, then upstream's per-topic {@code <CH>_SECURITY_PROTOCOL} and {@code <CH>_TLS_*}.
 */
@Singleton
public class KafkaClients {

  // the sidecar's own variables, not client properties
  private static final Set<String> OWN = Set.of("KAFKA_HOST", "KAFKA_PORT");

  private final EventsConfig config;
  private final Properties shared = new Properties();

  KafkaClients(EventsConfig config, Config properties) {
    this.config = config;
    for (var name : properties.getPropertyNames()) {
      String property = null;
      if (name.startsWith("kafka.")) {
        property = name.substring("kafka.".length());
      } else if (name.startsWith("KAFKA_") && !OWN.contains(name)) {
        property = name.substring("KAFKA_".length()).toLowerCase(Locale.ROOT).replace('_', '.');
      }
      if (property != null) {
        var key = property;
        properties.getOptionalValue(name, String.class).filter(value -> !value.isBlank())
          .ifPresent(value -> shared.setProperty(key, value));
      }
    }
  }

  /** {@code host:port}, or null when KAFKA_HOST is not set (no events). */
  public @Nullable String bootstrapServers() {
    return config.kafkaHost().filter(host -> !host.isBlank()).map(host -> host + ":" + config.kafkaPort()).orElse(null);
  }

  /** Client properties for the discovery topic: also what the health check's Kafka probe uses. */
  public Properties discovery() {
    return forChannel(config.discovery());
  }

  public Properties entitlement() {
    return forChannel(config.entitlement());
  }

  public Properties logout() {
    return forChannel(config.logout());
  }

  private Properties forChannel(EventsConfig.Channel channel) {
    var result = new Properties();
    // no client metrics pushed to the brokers (KIP-714) unless KAFKA_ENABLE_METRICS_PUSH=true: the sidecar reports
    // its Kafka state in its own metrics, and the telemetry reporter loads about 80 classes (a shaded protobuf)
    result.setProperty("enable.metrics.push", "false");
    result.putAll(shared);
    result.setProperty("bootstrap.servers", bootstrapServers());
    set(result, "security.protocol", channel.securityProtocol());
    set(result, "ssl.key.password", channel.tlsKeyPassword());
    set(result, "ssl.keystore.location", channel.tlsKeystorePath());
    set(result, "ssl.keystore.password", channel.tlsKeystorePassword());
    set(result, "ssl.truststore.location", channel.tlsTruststorePath());
    set(result, "ssl.truststore.password", channel.tlsTruststorePassword());
    set(result, "ssl.truststore.type", channel.tlsTruststoreType());
    set(result, "ssl.truststore.certificates", channel.tlsTruststoreCertificates());
    return result;
  }

  private static void set(Properties properties, String name, Optional<String> value) {
    value.filter(v -> !v.isBlank()).ifPresent(v -> properties.setProperty(name, v));
  }
}
