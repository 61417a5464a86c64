package org.folio.sidecar.events;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.folio.sidecar.support.Certificates;
import org.folio.sidecar.support.KafkaBroker;
import org.folio.sidecar.support.TestModule;
import org.folio.sidecar.support.TestPlatform;
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
    TestPlatform.get().resetModule();
    given().header("x-okapi-tenant", TENANT).get("/public/info").then().statusCode(400);

    var properties = new HashMap<String, Object>(KafkaBroker.tlsClient(java.nio.file.Path.of(System.getProperty("kafkatls.keystore"))));
    properties.put("bootstrap.servers", System.getProperty("kafkatls.bootstrap"));
    try (var producer = new KafkaProducer<>(properties, new StringSerializer(), new StringSerializer())) {
      // sent until the sidecar's consumer has its partitions (it starts at the latest offset)
      await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
        producer.send(new ProducerRecord<>("folio.entitlement", new JsonObject()
          .put("moduleId", TestModule.NAME + "-" + TestModule.VERSION).put("tenantName", TENANT)
          .put("tenantId", TestPlatform.tenantId(TENANT)).put("type", "ENTITLE").encode())).get(10, TimeUnit.SECONDS);
        given().header("x-okapi-tenant", TENANT).get("/public/info").then().statusCode(200);
      });
    }
    await().atMost(Duration.ofSeconds(15)).untilAsserted(() ->
      given().get("/admin/health").then().statusCode(200).body("status", equalTo("UP")));
  }
}
