package org.folio.sidecar.authz;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.folio.sidecar.support.SidecarCalls;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Item 11: Keycloak unreachable is a 503 whose code is not {@code authorization_error} (an outage is not a
 * denial), granted decisions keep serving, and readiness does not follow Keycloak (item 4).
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class KeycloakOutageTest {

  private final TestPlatform platform = TestPlatform.get();

  @BeforeEach
  void freshDecisions() {
    SidecarCalls.forgetDecisions();
  }

  @Test
  void outageIs503ServiceErrorWhileCachedGrantsServeAndTheSidecarStaysReady() {
    platform.resetModule();
    var alpha = platform.alpha();
    var token = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
    given().header("x-okapi-tenant", "alpha").header("x-okapi-token", token).get("/items/31").then().statusCode(200);
    double refused = SidecarCalls.keycloakDecisions("refused");
    platform.keycloakHop().cut();
    try {
      given().header("x-okapi-tenant", "alpha").header("x-okapi-token", token).put("/items/31")
        .then().statusCode(503)
        .body("errors[0].code", equalTo("service_error"))
        .body("errors[0].message", equalTo("Authorization service is unavailable"));
      // a refused connection, named as one: it fails at once instead of waiting for KC_REQUEST_TIMEOUT
      assertThat(SidecarCalls.keycloakDecisions("refused")).isEqualTo(refused + 1);

      given().header("x-okapi-tenant", "alpha").header("x-okapi-token", token).get("/items/31").then().statusCode(200);
      // HealthChecksTest waits for the probe to see the outage; here: the outage never makes the answer 503
      given().get("/admin/health/ready").then().statusCode(200).body("status", equalTo("UP"));
    } finally {
      platform.keycloakHop().restore();
    }
  }
}
