package org.folio.sidecar.egress;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.Test;

/**
 * Item 5, a module that requires no system user, with HANDLER_EGRESS_IGNORE_SYSTEM_USER_TOKEN_ERROR=false (the
 * default since upstream master, MODSIDECAR-197): an egress call without a user token is upstream's 400 (with true
 * it goes on without one: EgressTest).
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true, initArgs = {
  @ResourceArg(name = "egress.ignore-system-user-token-error", value = "false")})
class NoSystemUserTest {

  @Test
  void egressWithoutAUserTokenIs400() {
    var platform = TestPlatform.get();
    platform.resetModule();

    given().header("x-okapi-tenant", "alpha").get("/users/21").then().statusCode(400)
      .body("errors[0].type", equalTo("BadRequestException"))
      .body("errors[0].code", equalTo("service_error"))
      .body("errors[0].message", equalTo("System user token is required if the request doesn't contain"
        + " X-Okapi-Token. Check that system user is configured for the module: mod-items-1.0.0"));
    given().header("x-okapi-tenant", "alpha").header("x-okapi-token", "a-user-token").get("/users/22")
      .then().statusCode(200);

    platform.others().verify(0, getRequestedFor(urlEqualTo("/users/21")));
  }
}
