package org.folio.sidecar.health;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import org.folio.sidecar.support.Waits;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import org.folio.sidecar.support.SidecarCalls;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.Test;

/** Item 4 with upstream's defaults: every health path answers exactly {@code {"status":"UP"}}. */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class HealthDefaultBodyTest {

  @Test
  void healthBodiesAreUpstreamsDefault() {
    TestPlatform.get().resetModule();
    for (var path : new String[]{"/admin/health", "/admin/health/ready", "/admin/health/live",
      "/admin/health/started"}) {
      await().atMost(Waits.STATE).untilAsserted(() -> {
        var body = given().get(path).then().statusCode(200).extract().asString();
        assertThat(new JsonObject(body)).isEqualTo(new JsonObject().put("status", "UP"));
      });
    }
  }

  @Test
  void metricsAreServedOnTheManagementPortOnly() {
    given().get("/q/metrics").then().statusCode(404);
    SidecarCalls.metrics().body(org.hamcrest.Matchers.containsString("sidecar_dependency_up"));
  }
}
