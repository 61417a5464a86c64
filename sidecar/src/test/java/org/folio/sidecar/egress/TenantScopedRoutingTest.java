package org.folio.sidecar.egress;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import org.folio.sidecar.testkit.ModuleStub;
import org.folio.sidecar.testkit.TestModule;
import org.folio.sidecar.testkit.TestPlatform;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * SIDECAR_TENANT_SCOPED_ROUTING_ENABLED (upstream master, EUREKA-899) against the managers' exact shapes: the
 * module's own routes from {@code GET /modules/<id>/bootstrap}; per tenant {@code GET /entitlements?tenant=}
 * (mgr-tenant-entitlements) and {@code POST /modules/<id>/bootstrap {"applicationIds":[...]}} (mgr-applications).
 * alpha is entitled to app-platform 1.0.0 (mod-users 19 at /v1), beta to 2.0.0 (mod-users 20 at /v2); events
 * come through the real broker. SIDECAR_FORWARD_UNKNOWN_REQUESTS is not set, so it follows the feature: on.
 */
@QuarkusTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@WithTestResource(value = TenantScopedRoutingTest.Managers.class, parallel = true)
@WithTestResource(value = SidecarTestResource.class, parallel = true, initArgs = {
  @ResourceArg(name = "module.descriptor-path", value = ""),
  @ResourceArg(name = "egress.applications-url", value = "${testplatform.managers}"),
  @ResourceArg(name = "egress.tenant-scoped-routing", value = "true"),
  @ResourceArg(name = "egress.forward-unknown-requests-destination", value = "${testplatform.gateway}")})
class TenantScopedRoutingTest {

  private static final String MODULE_ID = TestModule.NAME + "-" + TestModule.VERSION;
  private static final String BOOTSTRAP = "/modules/" + MODULE_ID + "/bootstrap";
  private static final String V1 = "app-platform-1.0.0";
  private static final String V2 = "app-platform-2.0.0";
  private static final Duration WITHIN = Duration.ofSeconds(30);

  /** mgr-applications and mgr-tenant-entitlements as they answer with tenant-scoped routing. */
  public static class Managers implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
      var platform = TestPlatform.get();
      var managers = platform.managers();
      var ingress = TestModule.bootstrap(platform.others().baseUrl(), platform.others().baseUrl(), false)
        .put("requiredModules", new JsonArray());
      managers.stubFor(get(urlEqualTo(BOOTSTRAP)).willReturn(okJson(ingress.encode())));
      // every other test tenant is entitled to no application: an empty table, no bootstrap call
      managers.stubFor(get(urlPathEqualTo("/entitlements")).withQueryParam("includeModules", equalTo("false"))
        .atPriority(10).willReturn(okJson(entitlements())));
      entitle(managers, "alpha", V1);
      entitle(managers, "beta", V2);
      // shortlived's table cannot be built: its egress is unresolved
      managers.stubFor(entitlementsOf("shortlived").willReturn(aResponse().withStatus(500)));
      managers.stubFor(post(urlEqualTo(BOOTSTRAP)).withRequestBody(equalToJson(applicationIds(V1)))
        .willReturn(okJson(egressBootstrap("mod-users-19.0.0", V1, platform.others().baseUrl() + "/v1"))));
      managers.stubFor(post(urlEqualTo(BOOTSTRAP)).withRequestBody(equalToJson(applicationIds(V2)))
        .willReturn(okJson(egressBootstrap("mod-users-20.0.0", V2, platform.others().baseUrl() + "/v2"))));
      return Map.of();
    }

    @Override
    public void stop() {
      // the stubs stay with the shared managers' WireMock; only requests with includeModules=false and the
      // bootstrap paths of this test match them
    }
  }

  private final TestPlatform platform = TestPlatform.get();

  @BeforeEach
  void providersSayWhichVersionAnswered() {
    platform.resetModule();
    for (var version : new String[]{"v1", "v2"}) {
      platform.others().stubFor(get(urlPathMatching("/" + version + "/.*"))
        .willReturn(okJson(new JsonObject().put("from", version).encode())));
    }
  }

  @Test
  @Order(1)
  void tenantsEntitledToDifferentVersionsReachDifferentProviders() {
    await().atMost(WITHIN).untilAsserted(() -> {
      given().header("x-okapi-tenant", "alpha").get("/users/1").then().statusCode(200)
        .body("from", Matchers.equalTo("v1"));
      given().header("x-okapi-tenant", "beta").get("/users/2").then().statusCode(200)
        .body("from", Matchers.equalTo("v2"));
    });

    platform.others().verify(getRequestedFor(urlEqualTo("/v1/users/1"))
      .withHeader("x-system-token", com.github.tomakehurst.wiremock.client.WireMock.matching(".+")));
    // the managers were asked in their shapes
    platform.managers().verify(getRequestedFor(urlPathEqualTo("/entitlements"))
      .withQueryParam("tenant", equalTo("alpha")).withQueryParam("includeModules", equalTo("false")));
    platform.managers()
      .verify(postRequestedFor(urlEqualTo(BOOTSTRAP)).withRequestBody(equalToJson(applicationIds(V2))));
  }

  @Test
  @Order(2)
  void unresolvedEgressGoesToTheGateway() {
    var shortLived = platform.shortLivedTenant();
    // a path alpha's applications do not provide, and a tenant whose table could not be built
    given().header("x-okapi-tenant", "alpha").get("/notes/7").then().statusCode(200)
      .body("from", Matchers.equalTo("dedicated"));
    given().header("x-okapi-tenant", shortLived).get("/users/8").then().statusCode(200)
      .body("from", Matchers.equalTo("dedicated"));

    platform.dedicated().verify(getRequestedFor(urlEqualTo("/notes/7")));
    platform.dedicated().verify(getRequestedFor(urlEqualTo("/users/8")));
  }

  @Test
  @Order(3)
  void aFailedRebuildKeepsTheTenantsTable() {
    // mgr-applications now refuses alpha's bootstrap
    platform.managers().stubFor(post(urlEqualTo(BOOTSTRAP)).withRequestBody(equalToJson(applicationIds(V1)))
      .willReturn(aResponse().withStatus(500)));
    try (var capture = LogCapture.install(); var events = platform.events()) {
      // sent until the consumer has its partitions (it starts at the latest offset)
      await().atMost(WITHIN).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
        events.entitlement("alpha", "UPGRADE");
        assertThat(capture.lines()).anyMatch(line -> line.contains(
          "Egress routes of tenant alpha not built, keeping the previous ones: mgr-applications answered 500"));
      });
    }

    given().header("x-okapi-tenant", "alpha").get("/users/3").then().statusCode(200)
      .body("from", Matchers.equalTo("v1"));
  }

  @Test
  @Order(4)
  void anUpgradeEventMovesTheTenantToItsNewVersion() {
    entitle(platform.managers(), "alpha", V2);
    try (var events = platform.events()) {
      events.entitlement("alpha", "UPGRADE");
      await().atMost(WITHIN).untilAsserted(() -> given().header("x-okapi-tenant", "alpha").get("/users/4").then()
        .statusCode(200).body("from", Matchers.equalTo("v2")));
    }
    // beta did not move
    given().header("x-okapi-tenant", "beta").get("/users/5").then().statusCode(200)
      .body("from", Matchers.equalTo("v2"));
  }

  @Test
  @Order(5)
  void aRevokeDropsTheTenantsTable() {
    try (var capture = LogCapture.install(); var events = platform.events()) {
      events.entitlement("beta", "REVOKE");
      await().atMost(WITHIN).untilAsserted(() -> assertThat(capture.lines())
        .anyMatch(line -> line.contains("Egress routes of tenant beta dropped: it is no longer entitled")));

      // entitled again while its applications cannot be read: no table to fall back on, so the gateway
      platform.managers().stubFor(entitlementsOf("beta").willReturn(aResponse().withStatus(500)));
      events.entitlement("beta", "ENTITLE");
      await().atMost(WITHIN).untilAsserted(() -> assertThat(capture.lines()).anyMatch(line -> line.contains(
        "Egress routes of tenant beta not built, its egress goes to the gateway")));
    }

    given().header("x-okapi-tenant", "beta").get("/users/6").then().statusCode(200)
      .body("from", Matchers.equalTo("dedicated"));
  }

  @Test
  @Order(6)
  void routeOverridesStillWinOverATenantsTable() {
    platform.writeRouteOverrides(new JsonObject().put("interfaces", new JsonObject())
      .put("modules", new JsonObject().put("mod-users", platform.dedicated().baseUrl())).encode());
    try {
      await().atMost(WITHIN).untilAsserted(() -> given().header("x-okapi-tenant", "alpha").get("/users/10").then()
        .statusCode(200).body("from", Matchers.equalTo("dedicated")));
    } finally {
      platform.writeRouteOverrides("{}");
    }
  }

  private static com.github.tomakehurst.wiremock.client.MappingBuilder entitlementsOf(String tenant) {
    return get(urlPathEqualTo("/entitlements")).withQueryParam("tenant", equalTo(tenant))
      .withQueryParam("includeModules", equalTo("false"));
  }

  private static void entitle(ModuleStub managers, String tenant, String applicationId) {
    managers.stubFor(entitlementsOf(tenant).willReturn(okJson(entitlements(new JsonObject()
      .put("applicationId", applicationId).put("tenantId", TestPlatform.tenantId(tenant))))));
  }

  private static String entitlements(JsonObject... entitlements) {
    return new JsonObject().put("totalRecords", entitlements.length)
      .put("entitlements", new JsonArray(java.util.List.of((Object[]) entitlements))).encode();
  }

  private static String applicationIds(String applicationId) {
    return new JsonObject().put("applicationIds", new JsonArray().add(applicationId)).encode();
  }

  private static String egressBootstrap(String moduleId, String applicationId, String location) {
    return new JsonObject().put("requiredModules", new JsonArray().add(new JsonObject()
      .put("moduleId", moduleId).put("applicationId", applicationId).put("location", location)
      .put("interfaces", new JsonArray().add(new JsonObject().put("id", "users").put("version", "16.1")
        .put("endpoints", new JsonArray().add(new JsonObject().put("methods", new JsonArray().add("GET"))
          .put("pathPattern", "/users/{id}").put("permissionsRequired", new JsonArray().add("users.item.get"))))))))
      .encode();
  }
}
