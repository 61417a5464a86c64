package org.folio.sidecar.events;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.folio.sidecar.support.SidecarCalls.get;
import static org.hamcrest.Matchers.equalTo;

import org.folio.sidecar.support.Waits;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import jakarta.inject.Inject;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.folio.sidecar.config.EventsConfig;
import org.folio.sidecar.config.ModuleConfig;
import org.folio.sidecar.support.LogCapture;
import org.folio.sidecar.support.SidecarCalls;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.folio.sidecar.testkit.Tokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Platform events over a real Kafka broker, each observed through the sidecar's HTTP behaviour. How fast an event
 * takes effect is a benchmark's figure, not these tests': they wait for the state, so a busy machine cannot fail them.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class EventsTest {

  private static final Duration WITHIN = Waits.STATE;
  private static final String LOGOUT_TOPIC = "folio.alpha.mod-login-keycloak.logout";

  private final TestPlatform platform = TestPlatform.get();
  @Inject
  EventsConfig config;
  @Inject
  ModuleConfig module;
  @Inject
  KafkaClients clients;
  @Inject
  EventEffects effects;

  @BeforeEach
  void consumerIsListening() {
    platform.resetModule();
    var assigned = Pattern.compile("(?m)^sidecar_events_assigned_partitions ([0-9.]+)");
    await().atMost(Waits.STATE).until(() -> {
      var matcher = assigned.matcher(SidecarCalls.metrics().extract().asString());
      return matcher.find() && Double.parseDouble(matcher.group(1)) >= 4;
    });
  }

  @Test
  void revokedTenantIsRefusedAndEntitledAgain() {
    given().header("x-okapi-tenant", "beta").get("/public/info").then().statusCode(200);

    try (var events = platform.events()) {
      events.entitlement("beta", "REVOKE");
      await().atMost(WITHIN).pollInterval(Duration.ofMillis(50))
        .untilAsserted(() -> given().header("x-okapi-tenant", "beta").get("/public/info").then().statusCode(400)
          .body("errors[0].code", equalTo("tenant_not_enabled"))
          .body("errors[0].message", equalTo("Application is not enabled for tenant: beta")));

      events.entitlement("beta", "ENTITLE");
      await().atMost(WITHIN).pollInterval(Duration.ofMillis(50))
        .untilAsserted(() -> given().header("x-okapi-tenant", "beta").get("/public/info").then().statusCode(200));
    }
  }

  @Test
  void loggedOutSessionIsDeniedAfterTheEvent() {
    var alpha = platform.alpha();
    var login = platform.tokens().login(alpha, alpha.allowed());
    var token = login.getString("access_token");
    get("alpha", token, "/items/20").statusCode(200);
    platform.tokens().logout(alpha, login);
    get("alpha", token, "/items/20").statusCode(200); // cached: Keycloak tells no one

    try (var events = platform.events()) {
      events.logout("alpha", alpha.allowed().folioId(), Tokens.claims(token).getString("sid"));
    }

    await().atMost(WITHIN).pollInterval(Duration.ofMillis(50))
      .untilAsserted(() -> get("alpha", token, "/items/20").statusCode(401));
  }

  @Test
  void movedModuleIsRoutedAnewAfterItsDiscoveryEvent() throws Exception {
    var bootstrapFile = Path.of(platform.descriptorPath());
    var original = Files.readString(bootstrapFile);
    given().header("x-okapi-tenant", "alpha").get("/users/5").then().statusCode(200).body("from",
      equalTo("discovered"));
    var moved = new JsonObject(original);
    moved.getJsonArray("requiredModules").getJsonObject(0).put("location", platform.dedicated().baseUrl());

    try (var events = platform.events()) {
      Files.writeString(bootstrapFile, moved.encodePrettily());
      events.discovery("mod-users-19.0.0");
      await().atMost(WITHIN).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> given()
        .header("x-okapi-tenant", "alpha").get("/users/5").then().statusCode(200).body("from", equalTo("dedicated")));
    } finally {
      Files.writeString(bootstrapFile, original);
      try (var events = platform.events()) {
        events.discovery("mod-users-19.0.0");
      }
    }
    await().atMost(Waits.STATE).untilAsserted(
      () -> given().header("x-okapi-tenant", "alpha").get("/users/5").then().body("from", equalTo("discovered")));
  }

  @Test
  void malformedEventsBetweenGoodOnesAreSkipped() {
    var alpha = platform.alpha();
    var first = platform.tokens().login(alpha, alpha.allowed());
    var second = platform.tokens().login(alpha, alpha.allowed());
    for (var login : new JsonObject[]{first, second}) {
      get("alpha", login.getString("access_token"), "/items/21").statusCode(200);
      platform.tokens().logout(alpha, login);
    }

    try (var events = platform.events()) {
      events.logout("alpha", alpha.allowed().folioId(),
        Tokens.claims(first.getString("access_token")).getString("sid"));
      events.send("folio.alpha.mod-login-keycloak.logout", "not json at all");
      events.send("folio.alpha.mod-login-keycloak.logout", "{\"type\":\"LOGOUT\"}");
      events.send("folio.entitlement", "{\"moduleId\":\"mod-items-1.0.0\",\"type\":\"EXPLODE\"}");
      events.logout("alpha", alpha.allowed().folioId(),
        Tokens.claims(second.getString("access_token")).getString("sid"));
    }

    await().atMost(WITHIN).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
      get("alpha", first.getString("access_token"), "/items/21").statusCode(401);
      get("alpha", second.getString("access_token"), "/items/21").statusCode(401);
    });
    assertThat(SidecarCalls.metrics().extract().asString())
      .contains("sidecar_events_total{kind=\"logout\",outcome=\"malformed\"} 2.0");
  }

  @Test
  void consumptionResumesAfterTheBrokerComesBackAndServingNeverStops() {
    // Given a cached grant of a session that has since logged out
    var alpha = platform.alpha();
    var login = platform.tokens().login(alpha, alpha.allowed());
    var token = login.getString("access_token");
    get("alpha", token, "/items/22").statusCode(200);
    platform.tokens().logout(alpha, login);

    // When the broker goes away for a while, requests keep being served
    platform.keycloakHop().cutKafka();
    try {
      await().pollDelay(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
        .until(() -> {
          get("alpha", token, "/items/22").statusCode(200);
          given().header("x-okapi-tenant", "beta").get("/public/info").then().statusCode(200);
          return true;
        });
    } finally {
      platform.keycloakHop().restoreKafka();
    }

    // Then the next event after it is back is applied
    try (var events = platform.events()) {
      events.logout("alpha", alpha.allowed().folioId(), Tokens.claims(token).getString("sid"));
    }
    await().atMost(Waits.STATE).pollInterval(Duration.ofMillis(200))
      .untilAsserted(() -> get("alpha", token, "/items/22").statusCode(401));
  }

  @Test
  void aRecordWhoseHandlingThrowsCostsNoneOfTheOthersInItsPollAndIsNotReadAgain() throws Exception {
    // Given a consumer whose handling of one user's logout throws (as a failing reload would), the rest real
    var poisonUser = UUID.randomUUID().toString();
    var secret = "eyJ-token-in-the-failure-" + UUID.randomUUID();
    var applied = new CopyOnWriteArrayList<PlatformEvent>();
    EventHandler failingOnce = event -> {
      if (event instanceof PlatformEvent.Logout logout && poisonUser.equals(logout.userId())) {
        throw new IllegalStateException("cannot apply " + secret);
      }
      applied.add(event);
      return effects.apply(event);
    };
    var registry = new SimpleMeterRegistry();
    var consumer = new EventConsumer(config, module, clients, failingOnce, registry);
    try (var admin = Admin.create(Map.<String, Object>of("bootstrap.servers", clients.bootstrapServers()));
      var producer = batchingProducer()) {
      var groupsBefore = groups(admin);
      RecordMetadata poison;
      try (var capture = LogCapture.install()) {
        consumer.start(new StartupEvent());
        var warmUps = new AtomicInteger();
        await().atMost(Waits.STATE).pollInterval(Duration.ofMillis(500)).until(() -> {
          // its position is taken at its first fetch: a record sent before that would be missed
          producer.send(new ProducerRecord<>(LOGOUT_TOPIC, logout(UUID.randomUUID().toString(),
            UUID.randomUUID().toString())));
          producer.flush();
          warmUps.incrementAndGet();
          return !applied.isEmpty();
        });
        await().atMost(WITHIN).pollInterval(Duration.ofMillis(50)).until(() -> applied.size() == warmUps.get());
        applied.clear();

        // When one batch, and so one poll, holds A (throws), then B and C; later D on another topic
        var sessionB = UUID.randomUUID().toString();
        var sessionC = UUID.randomUUID().toString();
        var a = producer.send(new ProducerRecord<>(LOGOUT_TOPIC, logout(poisonUser, UUID.randomUUID().toString())));
        producer.send(new ProducerRecord<>(LOGOUT_TOPIC, logout(UUID.randomUUID().toString(), sessionB)));
        producer.send(new ProducerRecord<>(LOGOUT_TOPIC, logout(UUID.randomUUID().toString(), sessionC)));
        producer.flush();
        poison = a.get(10, TimeUnit.SECONDS);
        await().atMost(WITHIN).pollInterval(Duration.ofMillis(50)).until(() -> applied.size() == 2);
        producer.send(new ProducerRecord<>("folio.discovery",
          new JsonObject().put("moduleId", "mod-nobody-1.0.0").encode()));
        producer.flush();

        // Then B and C were applied in order, D after them, and A counted once and logged without its detail
        await().atMost(WITHIN).pollInterval(Duration.ofMillis(50)).until(() -> applied.size() == 3);
        assertThat(applied).extracting(EventsTest::sessionOrModule)
          .containsExactly(sessionB, sessionC, "mod-nobody-1.0.0");
        assertThat(count(registry, "logout", "failed")).isEqualTo(1.0);
        assertThat(count(registry, "logout", "applied")).isEqualTo(warmUps.get() + 2.0);
        var where = LOGOUT_TOPIC + "-" + poison.partition() + "@" + poison.offset();
        assertThat(capture.lines())
          .anyMatch(line -> line.contains("Event at " + where + " could not be applied (IllegalStateException)"))
          .noneMatch(line -> line.contains(secret) || line.contains(poisonUser) || line.contains("\tat "));
      } finally {
        consumer.stop(new ShutdownEvent());
      }

      // And its group's committed offset is past A: a restart would not read A again
      var ours = groups(admin);
      ours.removeAll(groupsBefore);
      assertThat(ours).hasSize(1);
      var committed = admin.listConsumerGroupOffsets(ours.getFirst()).partitionsToOffsetAndMetadata()
        .get(10, TimeUnit.SECONDS).get(new TopicPartition(LOGOUT_TOPIC, poison.partition()));
      assertThat(committed).isNotNull();
      assertThat(committed.offset()).isGreaterThan(poison.offset());
    }
  }

  private static List<String> groups(Admin admin) throws Exception {
    return new ArrayList<>(admin.listGroups().all().get(10, TimeUnit.SECONDS).stream()
      .map(group -> group.groupId()).toList());
  }

  /** Records sent before a flush leave in one batch per partition, which a consumer receives in one poll. */
  private KafkaProducer<String, String> batchingProducer() {
    return new KafkaProducer<>(Map.<String, Object>of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
      clients.bootstrapServers(), ProducerConfig.LINGER_MS_CONFIG, 60_000), new StringSerializer(),
      new StringSerializer());
  }

  private static String logout(String userId, String sessionId) {
    return new JsonObject().put("userId", userId).put("sessionId", sessionId).put("type", "LOGOUT").encode();
  }

  private static String sessionOrModule(PlatformEvent event) {
    return switch (event) {
      case PlatformEvent.Logout logout -> String.valueOf(logout.sessionId());
      case PlatformEvent.Discovery discovery -> discovery.moduleId();
      case PlatformEvent.Entitlement entitlement -> entitlement.moduleId();
    };
  }

  private static double count(SimpleMeterRegistry registry, String kind, String outcome) {
    return registry.get("sidecar.events").tag("kind", kind).tag("outcome", outcome).counter().count();
  }
}
