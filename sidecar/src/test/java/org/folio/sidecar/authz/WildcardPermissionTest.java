package org.folio.sidecar.authz;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.folio.sidecar.support.SidecarCalls.awaitKeycloakDecides;
import static org.folio.sidecar.support.SidecarCalls.get;
import static org.folio.sidecar.support.SidecarCalls.umaCalls;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.folio.sidecar.support.SidecarCalls;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.Test;

/**
 * SIDECAR_WILDCARD_PERMISSION_TOKEN_ONLY=true (upstream branch MODSIDECAR-198): {@code GET /whoami} declares
 * {@code permissionsRequired: ["*"]}, so a valid token of the tenant is all it takes, and Keycloak is not asked.
 * The token is still verified: a tampered, foreign or missing one is a 401. Counted at the Keycloak hop.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true, initArgs = {
  @ResourceArg(name = "sidecar.wildcard-permission-token-only", value = "true")})
class WildcardPermissionTest {

  private final TestPlatform platform = TestPlatform.get();

  @Test
  void anyValidTokenOfTheTenantIsForwardedWithoutAKeycloakCall() {
    var alpha = platform.alpha();
    var allowed = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
    var denied = platform.tokens().login(alpha, alpha.denied()).getString("access_token");
    var service = platform.serviceToken("alpha");
    int before = umaCalls();

    get("alpha", allowed, "/whoami").statusCode(200);
    // the user Keycloak grants nothing is let through too: no named permission is asked for
    get("alpha", denied, "/whoami").statusCode(200);
    get("alpha", service, "/whoami").statusCode(200);

    assertThat(umaCalls() - before).isZero();
  }

  @Test
  void aTokenThatDoesNotVerifyOrBelongsToAnotherTenantIsUnauthorized() {
    var alpha = platform.alpha();
    var token = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
    var tampered = token.substring(0, token.length() - 4) + (token.endsWith("AAAA") ? "BBBB" : "AAAA");
    var beta = platform.beta();
    var betaToken = platform.tokens().login(beta, beta.allowed()).getString("access_token");
    int before = umaCalls();

    get("alpha", tampered, "/whoami").statusCode(401).body("errors[0].code", equalTo("authorization_error"));
    get("alpha", betaToken, "/whoami").statusCode(401);
    given().header("x-okapi-tenant", "alpha").get("/whoami").then().statusCode(401);

    assertThat(umaCalls() - before).isZero();
  }

  @Test
  void otherProtectedEndpointsAreStillDecidedByKeycloak() {
    awaitKeycloakDecides();
    // a user's decisions outlive the login: a denial of an earlier test would be served from cache
    SidecarCalls.forgetDecisions();
    var alpha = platform.alpha();
    var denied = platform.tokens().login(alpha, alpha.denied()).getString("access_token");
    int before = umaCalls();

    get("alpha", denied, "/items/77").statusCode(403);

    assertThat(umaCalls() - before).isEqualTo(1);
  }
}
