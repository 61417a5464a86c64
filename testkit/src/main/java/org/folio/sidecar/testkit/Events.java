package org.folio.sidecar.testkit;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/** Publishes platform events the way FOLIO's managers do, to the test broker. */
public final class Events implements AutoCloseable {

  private final KafkaProducer<String, String> producer;

  public Events(String bootstrap) {
    producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
      new StringSerializer(), new StringSerializer());
  }

  public void send(String topic, String payload) {
    try {
      producer.send(new ProducerRecord<>(topic, payload)).get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("cannot publish to " + topic, e);
    }
  }

  public void entitlement(String tenant, String type) {
    send("folio.entitlement", new JsonObject().put("moduleId", TestModule.NAME + "-" + TestModule.VERSION)
      .put("tenantName", tenant).put("tenantId", TestPlatform.tenantId(tenant)).put("type", type).encode());
  }

  public void logout(String tenant, String userId, String sessionId) {
    send("folio." + tenant + ".mod-login-keycloak.logout", new JsonObject().put("userId", userId)
      .put("sessionId", sessionId).put("type", "LOGOUT").encode());
  }

  public void discovery(String moduleId) {
    send("folio.discovery", new JsonObject().put("moduleId", moduleId).encode());
  }

  @Override
  public void close() {
    producer.close();
  }
}
