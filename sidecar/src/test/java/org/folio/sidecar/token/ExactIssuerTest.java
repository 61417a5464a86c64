package org.folio.sidecar.token;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.restassured.RestAssured.given;

import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.folio.sidecar.support.AccessLines;
import org.folio.sidecar.support.KeycloakAsLocalhost;
import org.folio.sidecar.support.LogCapture;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.Test;

/**
 * KC_URI_VALIDATION_ENABLED=true (upstream's default): a token issued under another origin than KC_URL (Keycloak
 * called as {@code localhost}, its tokens saying {@code 127.0.0.1}) is refused.
 */
@QuarkusTest
@WithTestResource(value = KeycloakAsLocalhost.class, parallel = true, initArgs = @ResourceArg(name = "kc.uri-validation-enabled", value = "true"))
class ExactIssuerTest {

  private final TestPlatform platform = TestPlatform.get();

  @Test
  void realTokenIssuedUnderAnotherOriginIs401() {
    platform.resetModule();
    var token = platform.tokens().login(platform.alpha(), platform.alpha().allowed()).getString("access_token");

    try (var capture = LogCapture.install()) {
      given().header("x-okapi-tenant", "alpha").header("x-okapi-token", token).get("/items/1")
        .then().statusCode(401);
      AccessLines.assertReason(capture, "GET /items/1 401", "token issuer is not a realm of KC_URL");
    }
    platform.module().verify(0, getRequestedFor(urlEqualTo("/items/1")));
  }
}
