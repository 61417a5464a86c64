package org.folio.sidecar.routing;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import org.folio.sidecar.support.Waits;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Map;
import org.folio.sidecar.support.LogCapture;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestModule;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Item 2: the bootstrap comes from mgr-applications, which refuses the first call; the second (after
 * RETRY_MIN_DELAY) brings a bootstrap with odd endpoints, which are skipped with a WARN each while every
 * other route serves.
 */
@QuarkusTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@WithTestResource(value = BootstrapFromManagersTest.OddBootstrap.class, parallel = true)
@WithTestResource(value = SidecarTestResource.class, parallel = true, initArgs = {
  @ResourceArg(name = "module.descriptor-path", value = ""),
  @ResourceArg(name = "egress.applications-url", value = "${testplatform.managers}"),
  @ResourceArg(name = "retry.min-delay", value = "200ms")})
class BootstrapFromManagersTest {

  private static final String BOOTSTRAP_PATH = "/modules/" + TestModule.NAME + "-" + TestModule.VERSION;

  /** mgr-applications: 500 once, then the module's bootstrap with odd endpoints beside the good ones. */
  public static class OddBootstrap implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
      var platform = TestPlatform.get();
      var bootstrap = TestModule.bootstrap(platform.others().baseUrl(), platform.others().baseUrl(), false);
      bootstrap.getJsonObject("module").getJsonArray("interfaces")
        .add(new JsonObject().put("id", "odd").put("version", "1.0").put("endpoints", new JsonArray()
          .add(new JsonObject().put("pathPattern", "/odd/no-methods"))
          .add(new JsonObject().put("methods", new JsonArray().add("GET")).put("pathPattern", ""))
          .add(new JsonObject().put("methods", new JsonArray().add("GET")).put("pathPattern", "/odd/fields")
            .put("permissionsRequired", new JsonArray()).put("someFutureField", new JsonObject().put("x", 1)))))
        .add(new JsonObject().put("id", "empty").put("version", "1.0").put("endpoints", new JsonArray()));
      var managers = platform.managers();
      managers.resetRequests();
      managers.stubFor(get(urlEqualTo(BOOTSTRAP_PATH)).inScenario("bootstrap").whenScenarioStateIs(Scenario.STARTED)
        .willReturn(aResponse().withStatus(500)).willSetStateTo("refused once"));
      managers.stubFor(get(urlEqualTo(BOOTSTRAP_PATH)).inScenario("bootstrap").whenScenarioStateIs("refused once")
        .willReturn(okJson(bootstrap.encode())));
      return Map.of();
    }

    @Override
    public void stop() {
      // the stubs stay with the shared managers' WireMock; no other test asks for this path
    }
  }

  private final TestPlatform platform = TestPlatform.get();

  @Test
  @Order(1)
  void aRefusedFirstCallAndOddEndpointsStillEndReadyWithEveryGoodRoute() {
    platform.resetModule();
    await().atMost(Waits.STATE)
      .untilAsserted(() -> given().get("/admin/health/ready").then().statusCode(200));

    given().header("x-okapi-tenant", "alpha").get("/public/info").then().statusCode(200);
    given().header("x-okapi-tenant", "alpha").get("/odd/fields").then().statusCode(200);
    given().header("x-okapi-tenant", "alpha").get("/odd/no-methods").then().statusCode(404);
    given().header("x-okapi-tenant", "alpha").get("/users/1").then().statusCode(200);
    assertThat(platform.managers().findAll(getRequestedFor(urlEqualTo(BOOTSTRAP_PATH)))).hasSize(2);
  }

  @Test
  @Order(2)
  void eachOddEndpointIsNamedInOneWarning() {
    try (var capture = LogCapture.install(); var events = platform.events()) {
      // a discovery event for the module itself reloads the bootstrap; sent until the consumer has its partitions
      await().atMost(Waits.STATE).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
        events.discovery(TestModule.NAME + "-" + TestModule.VERSION);
        assertThat(capture.lines()).anyMatch(line -> line.contains("Skipping endpoint #0 of interface odd")
          && line.contains("/odd/no-methods has no methods"));
      });
      assertThat(capture.lines()).anyMatch(line -> line.contains("Skipping endpoint #1 of interface odd")
        && line.contains("neither a path nor a pathPattern"));
      assertThat(capture.lines()).noneMatch(line -> line.contains("Skipping endpoint #2 of interface odd"));
    }
  }
}
