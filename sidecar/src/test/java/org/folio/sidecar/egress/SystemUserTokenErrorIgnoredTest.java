package org.folio.sidecar.egress;

import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.restassured.RestAssured.given;

import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * HANDLER_EGRESS_IGNORE_SYSTEM_USER_TOKEN_ERROR=true, as eureka-setup sets it on mod-users-keycloak's sidecar
 * (ECLI-31) and v4.0.3 had it by default: a module whose bootstrap requires a system user, in a tenant where its
 * system user's token cannot be had, still gets its egress call through, with the service token and without a
 * user token (SystemUserTokenTest has the 503 of false, the default).
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true, initArgs = {
  @ResourceArg(name = "module.descriptor-path", value = "${testplatform.descriptor.system-user}"),
  @ResourceArg(name = "egress.ignore-system-user-token-error", value = "true")})
class SystemUserTokenErrorIgnoredTest {

  private final TestPlatform platform = TestPlatform.get();

  @BeforeEach
  void resetModule() {
    platform.resetModule();
  }

  @Test
  void aSystemUserTokenThatCannotBeHadIsLeftOutAndTheCallGoesOn() {
    // beta has no system-user secrets
    given().header("x-okapi-tenant", "beta").get("/users/41").then().statusCode(200);

    platform.others().verify(1, getRequestedFor(urlEqualTo("/users/41"))
      .withHeader("x-okapi-token", absent()).withHeader("x-system-token", matching(".+")));
  }

  @Test
  void aSystemUserTokenThatCanBeHadIsStillSent() {
    given().header("x-okapi-tenant", "alpha").get("/users/42").then().statusCode(200);

    platform.others().verify(1, getRequestedFor(urlEqualTo("/users/42"))
      .withHeader("x-okapi-token", matching(".+")).withHeader("x-system-token", matching(".+")));
  }
}
