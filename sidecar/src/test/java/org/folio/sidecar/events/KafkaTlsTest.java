package org.folio.sidecar.events;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.folio.sidecar.testkit.Certificates;
import org.folio.sidecar.support.EntitlementOverKafka;
import org.folio.sidecar.testkit.KafkaBroker;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.Test;

/**
 * Kafka over TLS with upstream's per-topic variables ({@code <CH>_SECURITY_PROTOCOL}, {@code <CH>_TLS_*}): a
 * broker that speaks only TLS, with a certificate made at test time; an entitlement event sent over TLS takes
 * effect, and the Kafka health check (same settings) is UP.
 */
@QuarkusTest
@WithTestResource(value = KafkaTlsTest.TlsBroker.class, parallel = true)
class KafkaTlsTest {

  private static final String TENANT = "tls_tenant";

  /** The platform pointed at a TLS broker, as an operator's upstream variables would. */
  public static class TlsBroker implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
      try {
        var keystore = Certificates.selfSigned(Files.createTempDirectory("kafka-tls"), "broker");
        var bootstrap = KafkaBroker.startTls(List.of("folio.discovery", "folio.entitlement",
          "folio.alpha.mod-login-keycloak.logout"), keystore);
        System.setProperty("kafkatls.bootstrap", bootstrap);
        System.setProperty("kafkatls.keystore", keystore.toString());
        var config = new HashMap<>(TestPlatform.get().sidecarConfig());
        config.put("events.kafka-host", bootstrap.substring(0, bootstrap.lastIndexOf(':')));
        config.put("events.kafka-port", bootstrap.substring(bootstrap.lastIndexOf(':') + 1));
        for (var channel : List.of("discovery", "entitlement", "logout")) {
          config.put("events." + channel + ".security-protocol", "SSL");
          config.put("events." + channel + ".tls-truststore-path", keystore.toString());
          config.put("events." + channel + ".tls-truststore-password", Certificates.PASSWORD);
          config.put("events." + channel + ".tls-truststore-type", "PKCS12");
        }
        return config;
      } catch (Exception e) {
        throw new IllegalStateException("cannot start the TLS broker", e);
      }
    }

    @Override
    public void stop() {
      // the broker stops with the JVM
    }
  }

  @Test
  void eventsArriveOverTlsAndTheKafkaCheckIsUp() {
    EntitlementOverKafka.entitleAndServe(System.getProperty("kafkatls.bootstrap"),
      KafkaBroker.tlsClient(java.nio.file.Path.of(System.getProperty("kafkatls.keystore"))), TENANT);
  }
}
