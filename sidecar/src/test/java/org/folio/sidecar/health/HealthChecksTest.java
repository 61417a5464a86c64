package org.folio.sidecar.health;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.nullValue;

import org.folio.sidecar.support.Waits;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import org.folio.sidecar.support.SidecarCalls;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.Test;

/**
 * Item 4 with the checks shown (HEALTH_CHECK_FILTER_NO_CHECKS_ENABLED=false) and the module check simplified:
 * upstream's SmallRye shape, the module decides the status, Kafka's checks and Keycloak are only informational.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true, initArgs = {
  @ResourceArg(name = "health-check.filter.no-checks.enabled", value = "false"),
  @ResourceArg(name = "health-check.filter.module-simplified.enabled", value = "true")})
class HealthChecksTest {

  private static final String KEYCLOAK = "checks.find { it.name.startsWith('Keycloak') }";
  private static final String KAFKA = "checks.find { it.name == 'Kafka connection health check' }";

  private final TestPlatform platform = TestPlatform.get();

  @Test
  void bodyHasUpstreamsChecksAndTheSimplifiedModuleCheckHasNoData() {
    platform.resetModule();
    await().atMost(Waits.STATE).untilAsserted(() -> given().get("/admin/health").then().statusCode(200)
      .body("status", equalTo("UP"))
      .body("checks.name", hasItems("Module health check", "Kafka connection health check",
        "SmallRye Reactive Messaging - readiness check"))
      .body("checks.find { it.name == 'Module health check' }.data", nullValue())
      .body("checks.find { it.name == 'Kafka connection health check' }.data.nodes", containsString(":"))
      .body("checks.find { it.name == 'SmallRye Reactive Messaging - readiness check' }.data.logout",
        equalTo("[OK]")));
  }

  @Test
  void kafkaChecksCarrySmallRyeReactiveMessagingsNamesAsUpstreams() {
    platform.resetModule();
    // the names upstream master's ComprehensiveHealthCheckIT finds in /admin/health
    await().atMost(Waits.STATE).untilAsserted(() -> given().get("/admin/health").then().statusCode(200)
      .body("checks.find { it.name == 'SmallRye Reactive Messaging - liveness check' }.status", equalTo("UP"))
      .body("checks.find { it.name == 'SmallRye Reactive Messaging - readiness check' }.status", equalTo("UP"))
      .body("checks.find { it.name == 'SmallRye Reactive Messaging - startup check' }.status", equalTo("UP"))
      .body("checks.find { it.name == 'Kafka connection health check' }.status", equalTo("UP"))
      .body("checks.find { it.name == 'SmallRye Reactive Messaging - startup check' }.data.entitlement",
        equalTo("[OK]")));
    // readiness alone, as SmallRye's /ready
    given().get("/admin/health/ready").then().statusCode(200)
      .body("checks.name", hasItems("SmallRye Reactive Messaging - readiness check"))
      .body("checks.find { it.name == 'SmallRye Reactive Messaging - liveness check' }", nullValue());
  }

  @Test
  void keycloakOutageIsVisibleButLeavesTheSidecarReady() {
    platform.resetModule();
    await().atMost(Waits.STATE).untilAsserted(() -> given().get("/admin/health/ready").then()
      .statusCode(200).body(KEYCLOAK + ".data.reachable", equalTo(true)));
    platform.keycloakHop().cut();
    try {
      await().atMost(Waits.STATE).untilAsserted(() -> given().get("/admin/health/ready").then()
        .statusCode(200).body("status", equalTo("UP"))
        .body(KEYCLOAK + ".status", equalTo("UP"))
        .body(KEYCLOAK + ".data.reachable", equalTo(false)));
      given().get("/admin/health").then().statusCode(200).body("status", equalTo("UP"));
      SidecarCalls.metrics()
        .body(containsString("sidecar_dependency_up{dependency=\"keycloak\"} 0.0"));
    } finally {
      platform.keycloakHop().restore();
    }
  }

  @Test
  void kafkaOutageIsVisibleButLeavesTheSidecarReadyAndLive() {
    platform.resetModule();
    await().atMost(Waits.STATE).untilAsserted(() -> given().get("/admin/health/ready").then()
      .statusCode(200).body(KAFKA + ".status", equalTo("UP")));
    platform.keycloakHop().cutKafka();
    try {
      await().atMost(Waits.STATE).untilAsserted(() -> given().get("/admin/health/ready").then()
        .statusCode(200).body("status", equalTo("UP"))
        .body(KAFKA + ".status", equalTo("DOWN"))
        .body(KAFKA + ".data.nodes", containsString(":")));
      // the full body keeps upstream's members: every Kafka check is still listed
      given().get("/admin/health").then().statusCode(200).body("status", equalTo("UP"))
        .body("checks.name", hasItems("Kafka connection health check", "SmallRye Reactive Messaging - liveness check",
          "SmallRye Reactive Messaging - readiness check", "SmallRye Reactive Messaging - startup check"));
      given().get("/admin/health/live").then().statusCode(200).body("status", equalTo("UP"));
      SidecarCalls.metrics().body(containsString("sidecar_dependency_up{dependency=\"kafka\"} 0.0"));
    } finally {
      platform.keycloakHop().restoreKafka();
    }
    await().atMost(Waits.STATE).untilAsserted(() -> given().get("/admin/health/ready").then()
      .statusCode(200).body(KAFKA + ".status", equalTo("UP")));
  }

  @Test
  void moduleDownMakesTheSidecarUnreadyButStillLive() {
    platform.module().resetTo(List.of(com.github.tomakehurst.wiremock.client.WireMock.get("/admin/health")
      .willReturn(com.github.tomakehurst.wiremock.client.WireMock.aResponse().withStatus(503))));
    try {
      await().atMost(Waits.STATE).untilAsserted(() -> given().get("/admin/health").then().statusCode(503)
        .body("status", equalTo("DOWN"))
        .body("checks.find { it.name == 'Module health check' }.status", equalTo("DOWN")));
      given().get("/admin/health/live").then().statusCode(200).body("status", equalTo("UP"));
    } finally {
      platform.resetModule();
    }
    await().atMost(Waits.STATE).untilAsserted(() -> given().get("/admin/health").then().statusCode(200));
  }
}
