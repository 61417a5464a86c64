package org.folio.sidecar.egress;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.restassured.RestAssured.given;

import com.github.tomakehurst.wiremock.client.WireMock;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.Test;

/** With SIDECAR_FORWARD_UNKNOWN_REQUESTS on, what no route matches goes to the gateway, service token attached. */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true, initArgs = {
  @ResourceArg(name = "egress.forward-unknown-requests", value = "true"),
  @ResourceArg(name = "egress.forward-unknown-requests-destination", value = "${testplatform.gateway}")})
class GatewayFallbackTest {

  private final TestPlatform platform = TestPlatform.get();

  @Test
  void unknownRouteGoesToTheGateway() {
    platform.resetModule();

    given().header("x-okapi-tenant", "alpha").get("/nobody/provides/this").then().statusCode(200);

    platform.dedicated().verify(1, getRequestedFor(urlEqualTo("/nobody/provides/this"))
      .withHeader("x-system-token", WireMock.matching(".+")));
  }
}
