package org.folio.sidecar.tenant;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestModule;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.Test;

/** Item 13: upstream v4's {@code GET /entitlements/modules/<own id>}, answered by the sidecar itself, unauthenticated. */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class ModuleEntitlementsEndpointTest {

  @Test
  void ownModuleGetsItsEntitledTenantsWithoutAToken() {
    TestPlatform.get().resetModule();
    var body = given().get("/entitlements/modules/" + TestModule.NAME + "-" + TestModule.VERSION)
      .then().statusCode(200).contentType("application/json").extract().asString();

    var tenants = new JsonArray(body).stream().map(String::valueOf).toList();
    assertThat(tenants).contains("alpha", "beta", "svc01", "svc60").doesNotContain("stranger");
    // answered by the sidecar: the module never sees the call
    TestPlatform.get().module().verify(0, com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor(
      com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching("/entitlements.*")));
  }

  @Test
  void anotherModulesIdIsForbidden() {
    given().get("/entitlements/modules/mod-users-19.0.0").then().statusCode(403)
      .body("errors[0].code", equalTo("authorization_error")).body("errors[0].message", equalTo("Access Denied"));
  }
}
