package org.folio.sidecar.egress;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Item 6: two required modules provide the {@code multiple} interface {@code codex}; x-okapi-module-id picks
 * one. Without the header, or naming a module that is not required, no codex route matches (the gateway case
 * is in {@link DynamicRoutingTest}, where forward-unknown is on).
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class MultipleInterfacesTest {

  private final TestPlatform platform = TestPlatform.get();

  @BeforeEach
  void resetModule() {
    platform.resetModule();
  }

  @Test
  void moduleIdPicksTheProviderOfAMultipleInterface() {
    given().header("x-okapi-tenant", "alpha").header("x-okapi-module-id", "mod-codex-ekb-1.0.0")
      .get("/codex-instances").then().statusCode(200);
    given().header("x-okapi-tenant", "alpha").header("x-okapi-module-id", "mod-codex-inventory-2.0.0")
      .get("/codex-instances").then().statusCode(200);

    platform.others().verify(1, getRequestedFor(urlEqualTo("/ekb/codex-instances"))
      .withHeader("x-okapi-module-id", com.github.tomakehurst.wiremock.client.WireMock.equalTo("mod-codex-ekb-1.0.0")));
    platform.others().verify(1, getRequestedFor(urlEqualTo("/inventory/codex-instances")));
  }

  @Test
  void withoutAModuleIdOrNamingAnotherModuleTheRouteIsNotFound() {
    given().header("x-okapi-tenant", "alpha").get("/codex-instances").then().statusCode(404)
      .body("errors[0].code", equalTo("route_not_found_error"));
    given().header("x-okapi-tenant", "alpha").header("x-okapi-module-id", "mod-codex-other-1.0.0")
      .get("/codex-instances").then().statusCode(404);
    // on egress a named module is all that matches: an ordinary route is not taken for another module's id
    given().header("x-okapi-tenant", "alpha").header("x-okapi-module-id", "mod-codex-other-1.0.0")
      .get("/users/1").then().statusCode(404);

    platform.others().verify(0, anyRequestedFor(urlPathMatching(".*codex-instances")));
  }

  @Test
  void ingressIgnoresTheModuleIdForItsOwnOrdinaryRoutes() {
    given().header("x-okapi-tenant", "alpha").header("x-okapi-module-id", "mod-codex-ekb-1.0.0")
      .get("/public/info").then().statusCode(200);
  }
}
