package org.folio.sidecar.events;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.folio.sidecar.support.EntitlementOverKafka;
import org.folio.sidecar.testkit.KafkaBroker;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.Test;

/**
 * Kafka over SASL/PLAIN with the shared client variables an operator sets for every topic
 * ({@code KAFKA_SECURITY_PROTOCOL}, {@code KAFKA_SASL_MECHANISM}, {@code KAFKA_SASL_JAAS_CONFIG}).
 */
@QuarkusTest
@WithTestResource(value = KafkaSaslTest.SaslBroker.class, parallel = true)
class KafkaSaslTest {

  /** The platform pointed at a SASL broker, configured as the environment variables would be. */
  public static class SaslBroker implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
      var bootstrap = KafkaBroker.startSasl(List.of("folio.discovery", "folio.entitlement",
        "folio.alpha.mod-login-keycloak.logout"));
      System.setProperty("kafkasasl.bootstrap", bootstrap);
      var config = new HashMap<>(TestPlatform.get().sidecarConfig());
      config.put("events.kafka-host", bootstrap.substring(0, bootstrap.lastIndexOf(':')));
      config.put("events.kafka-port", bootstrap.substring(bootstrap.lastIndexOf(':') + 1));
      KafkaBroker.saslClient().forEach((name, value) -> config.put("kafka." + name, String.valueOf(value)));
      return config;
    }

    @Override
    public void stop() {
      // the broker stops with the JVM
    }
  }

  @Test
  void eventsArriveOverSaslAndTheKafkaCheckIsUp() {
    EntitlementOverKafka.entitleAndServe(System.getProperty("kafkasasl.bootstrap"), KafkaBroker.saslClient(),
      "sasl_tenant");
  }
}
