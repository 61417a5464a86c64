package org.folio.sidecar.events;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.folio.sidecar.support.SidecarCalls.get;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;
import org.folio.sidecar.support.SidecarCalls;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.folio.sidecar.testkit.Tokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Platform events over a real Kafka broker, each observed through the sidecar's HTTP behaviour within 1 s. */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class EventsTest {

  private static final Duration WITHIN = Duration.ofSeconds(1);
  private final TestPlatform platform = TestPlatform.get();

  @BeforeEach
  void consumerIsListening() {
    platform.resetModule();
    var assigned = Pattern.compile("(?m)^sidecar_events_assigned_partitions ([0-9.]+)");
    await().atMost(Duration.ofSeconds(30)).until(() -> {
      var matcher = assigned.matcher(SidecarCalls.metrics().extract().asString());
      return matcher.find() && Double.parseDouble(matcher.group(1)) >= 4;
    });
  }

  @Test
  void revokedTenantIsRefusedAndEntitledAgainWithinASecond() {
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
  void loggedOutSessionIsDeniedWithinASecondOfTheEvent() {
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
    await().atMost(Duration.ofSeconds(3)).untilAsserted(
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
    await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
      .untilAsserted(() -> get("alpha", token, "/items/22").statusCode(401));
  }
}
