package org.folio.sidecar.support;

import org.folio.sidecar.testkit.TestModule;
import org.folio.sidecar.testkit.TestPlatform;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The check of a secured Kafka connection: a tenant the sidecar refuses is entitled by an event sent with
 * {@code client} settings, after which the sidecar serves it, and the Kafka health check is UP.
 */
public final class EntitlementOverKafka {

  private EntitlementOverKafka() {
  }

  public static void entitleAndServe(String bootstrap, Map<String, Object> client, String tenant) {
    TestPlatform.get().resetModule();
    given().header("x-okapi-tenant", tenant).get("/public/info").then().statusCode(400);
    var properties = new HashMap<>(client);
    properties.put("bootstrap.servers", bootstrap);
    try (var producer = new KafkaProducer<>(properties, new StringSerializer(), new StringSerializer())) {
      // sent until the sidecar's consumer has its partitions (it starts at the latest offset)
      await().atMost(Waits.STATE).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
        producer.send(new ProducerRecord<>("folio.entitlement", new JsonObject()
          .put("moduleId", TestModule.NAME + "-" + TestModule.VERSION).put("tenantName", tenant)
          .put("tenantId", TestPlatform.tenantId(tenant)).put("type", "ENTITLE").encode())).get(10, TimeUnit.SECONDS);
        given().header("x-okapi-tenant", tenant).get("/public/info").then().statusCode(200);
      });
    }
    await().atMost(Waits.STATE)
      .untilAsserted(() -> given().get("/admin/health").then().statusCode(200).body("status", equalTo("UP")));
  }
}
