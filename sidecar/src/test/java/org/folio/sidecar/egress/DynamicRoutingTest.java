package org.folio.sidecar.egress;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.startsWith;

import com.github.tomakehurst.wiremock.client.WireMock;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Items 7 and 6 with ROUTING_DYNAMIC_ENABLED and forward-unknown on: x-okapi-module-hint routes an egress
 * request no required module matches to the hinted module's discovered location (a versioned id as it is, a
 * bare name through the tenant's entitlements); what matches nothing goes to the gateway with its headers.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true, initArgs = {
  @ResourceArg(name = "egress.dynamic-routing-enabled", value = "true"),
  @ResourceArg(name = "egress.applications-url", value = "${testplatform.managers}"),
  @ResourceArg(name = "egress.forward-unknown-requests", value = "true"),
  @ResourceArg(name = "egress.forward-unknown-requests-destination", value = "${testplatform.gateway}")})
class DynamicRoutingTest {

  private final TestPlatform platform = TestPlatform.get();

  @BeforeEach
  void stubManagers() {
    platform.resetModule();
    var managers = platform.managers();
    managers.stubFor(get(urlEqualTo("/modules/mod-notes-3.1.0/discovery")).willReturn(okJson(new JsonObject()
      .put("id", "mod-notes-3.1.0").put("name", "mod-notes").put("version", "3.1.0")
      .put("location", platform.others().baseUrl() + "/notes-location").encode())));
    managers.stubFor(get(urlPathEqualTo("/entitlements")).withQueryParam("tenant", equalTo("alpha"))
      .withQueryParam("includeModules", equalTo("true")).willReturn(okJson(new JsonObject()
        .put("entitlements", new JsonArray()
          .add(new JsonObject().put("applicationId", "app-a-1.0.0").put("tenantId", TestPlatform.tenantId("alpha"))
            .put("modules", new JsonArray().add("mod-notes-3.1.0").add("mod-twin-1.0.0").add("mod-gone-1.0.0")))
          .add(new JsonObject().put("applicationId", "app-b-1.0.0").put("tenantId", TestPlatform.tenantId("alpha"))
            .put("modules", new JsonArray().add("mod-twin-1.1.0"))))
        .put("totalRecords", 2).encode())));
  }

  @Test
  void versionedAndBareHintsReachTheDiscoveredLocationWithTheServiceToken() {
    given().header("x-okapi-tenant", "alpha").header("x-okapi-module-hint", "mod-notes-3.1.0")
      .get("/notes/1").then().statusCode(200);
    given().header("x-okapi-tenant", "alpha").header("x-okapi-module-hint", "mod-notes")
      .get("/notes/2").then().statusCode(200);

    for (var id : new String[]{"1", "2"}) {
      platform.others().verify(1, getRequestedFor(urlEqualTo("/notes-location/notes/" + id))
        .withHeader("x-system-token", WireMock.matching(".+")));
    }
  }

  @Test
  void hintsThatNameNoSingleEntitledModuleAreClientErrorsInUpstreamsWords() {
    given().header("x-okapi-tenant", "alpha").header("x-okapi-module-hint", "mod-twin").get("/twins/1")
      .then().statusCode(409).body("errors[0].code", org.hamcrest.Matchers.equalTo("service_error"))
      .body("errors[0].message", startsWith("Multiple entitled modules found for name: moduleName = mod-twin"));
    given().header("x-okapi-tenant", "alpha").header("x-okapi-module-hint", "mod-absent").get("/absent/1")
      .then().statusCode(404)
      .body("errors[0].message", org.hamcrest.Matchers.equalTo(
        "No entitled module found for name: moduleName = mod-absent, tenant = alpha"));
    given().header("x-okapi-tenant", "alpha").header("x-okapi-module-hint", " ").get("/absent/1")
      .then().statusCode(400)
      .body("errors[0].message", org.hamcrest.Matchers.equalTo(
        "Module hint header is present but empty: X-Okapi-Module-Hint"));
  }

  @Test
  void aHintIsTheNameOrIdOfAModuleTheTenantIsEntitledToAndNothingElse() {
    // Given beta, entitled to no module mod-notes or mod-dyn-bar
    platform.managers().stubFor(get(urlPathEqualTo("/entitlements")).withQueryParam("tenant", equalTo("beta"))
      .willReturn(okJson(new JsonObject().put("entitlements", new JsonArray()).put("totalRecords", 0).encode())));

    // When beta names mod-notes' versioned id (discovery knows it) and mod-dyn-bar's (discovery does not), and
    // alpha a hint that is no module id at all
    given().header("x-okapi-tenant", "beta").header("x-okapi-module-hint", "mod-notes-3.1.0").get("/notes/3")
      .then().statusCode(404).body("errors[0].message", org.hamcrest.Matchers.equalTo(
        "Unable to find discovery of the module with id: mod-notes-3.1.0"));
    given().header("x-okapi-tenant", "beta").header("x-okapi-module-hint", "mod-dyn-bar-0.0.1").get("/dyn-bar/1")
      .then().statusCode(404).body("errors[0].message", org.hamcrest.Matchers.equalTo(
        "Unable to find discovery of the module with id: mod-dyn-bar-0.0.1"));
    given().header("x-okapi-tenant", "beta").header("x-okapi-module-hint", "mod-dyn-bar").get("/dyn-bar/2")
      .then().statusCode(404).body("errors[0].message", org.hamcrest.Matchers.equalTo(
        "No entitled module found for name: moduleName = mod-dyn-bar, tenant = beta"));
    given().header("x-okapi-tenant", "alpha").header("x-okapi-module-hint", "x/../../some/other/endpoint?q=-1.0.0")
      .get("/notes/4").then().statusCode(400);

    // Then neither reached mod-notes, and the odd hint never reached a manager's URL
    platform.others().verify(0, getRequestedFor(urlPathMatching("/notes-location/notes/[34]")));
    platform.managers().verify(0, getRequestedFor(urlPathMatching("/(modules/x|some).*")));
  }

  @Test
  void aHintedModuleMgrApplicationsHasNoDiscoveryOfIsUpstreams404() {
    platform.managers().stubFor(get(urlEqualTo("/modules/mod-gone-1.0.0/discovery")).willReturn(WireMock.aResponse()
      .withStatus(404).withHeader("content-type", "application/json").withBody(new JsonObject()
        .put("errors", new JsonArray().add(new JsonObject().put("type", "EntityNotFoundException")
          .put("code", "not_found_error")
          .put("message", "Unable to find discovery of the module with id: mod-gone-1.0.0")
          .put("parameters", new JsonArray())))
        .put("total_records", 1).encode())));

    given().header("x-okapi-tenant", "alpha").header("x-okapi-module-hint", "mod-gone-1.0.0").get("/gone/1")
      .then().statusCode(404)
      .body("errors[0].type", org.hamcrest.Matchers.equalTo("WebApplicationException"))
      .body("errors[0].code", org.hamcrest.Matchers.equalTo("service_error"))
      .body("errors[0].message", org.hamcrest.Matchers.equalTo(
        "Unable to find discovery of the module with id: mod-gone-1.0.0"))
      .body("total_records", org.hamcrest.Matchers.equalTo(1));
    platform.others().verify(0, getRequestedFor(urlEqualTo("/gone/1")));
  }

  @Test
  void aModuleIdThatNoRequiredModuleHasGoesToTheGatewayUnchanged() {
    given().header("x-okapi-tenant", "alpha").header("x-okapi-module-id", "mod-codex-other-1.0.0")
      .get("/codex-instances").then().statusCode(200);
    given().header("x-okapi-tenant", "alpha").get("/codex-instances").then().statusCode(200);

    platform.dedicated().verify(2, getRequestedFor(urlEqualTo("/codex-instances")));
    platform.dedicated().verify(1, getRequestedFor(urlEqualTo("/codex-instances"))
      .withHeader("x-okapi-module-id", equalTo("mod-codex-other-1.0.0")));
  }
}
