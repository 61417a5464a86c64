package org.folio.sidecar.security;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.github.tomakehurst.wiremock.client.WireMock;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.folio.sidecar.testkit.Tokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Requests that must never reach the module (or a target) with an identity, a token or a permission the caller
 * does not hold (issue 25). Each test failed before its fix.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class WrongAllowsTest {

  private final TestPlatform platform = TestPlatform.get();

  @BeforeEach
  void resetModule() {
    platform.resetModule();
    platform.others().resetRequests();
  }

  private String allowedToken() {
    return platform.tokens().login(platform.alpha(), platform.alpha().allowed()).getString("access_token");
  }

  /** A token claiming to be {@code claims}'s user, unsigned (alg none). */
  private static String forged(JsonObject claims) {
    var encoder = Base64.getUrlEncoder().withoutPadding();
    return encoder.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8)) + "."
      + encoder.encodeToString(claims.encode().getBytes(StandardCharsets.UTF_8)) + ".";
  }

  @Test
  void aUserTokenSentAsTheSystemTokenIsRefused() {
    // Given the caller's own valid user token as x-system-token, and a forged token for another user
    var own = allowedToken();
    var forgedOther = forged(Tokens.claims(own).put("user_id", "another-user").put("sub", "another-user"));

    // When it calls a protected and a public endpoint
    given().header("x-okapi-tenant", "alpha").header("x-system-token", own).header("x-okapi-token", forgedOther)
      .get("/items/1").then().statusCode(401);
    given().header("x-okapi-tenant", "alpha").header("x-system-token", own).header("x-okapi-token", forgedOther)
      .get("/public/info").then().statusCode(401);

    // Then the module never saw the forged identity
    platform.module().verify(0, anyRequestedFor(urlPathMatching("/(items|public).*")));
  }

  @Test
  void anUnverifiedUserTokenBesideAServiceTokenIsDroppedNotForwarded() {
    // Given the tenant's real module-access token, and beside it a forged user token and another realm's token
    var service = platform.serviceToken("alpha");
    var forgedOther = forged(Tokens.claims(allowedToken()).put("user_id", "another-user"));
    var betaToken = platform.tokens().login(platform.beta(), platform.beta().allowed()).getString("access_token");

    given().header("x-okapi-tenant", "alpha").header("x-system-token", service).header("x-okapi-token", forgedOther)
      .get("/items/5").then().statusCode(200);
    given().header("x-okapi-tenant", "alpha").header("x-system-token", service).header("x-okapi-token", betaToken)
      .get("/public/info").then().statusCode(200);

    // Then the module got the verified service token and no user token or identity at all
    platform.module().verify(1, getRequestedFor(urlEqualTo("/items/5"))
      .withHeader("x-system-token", WireMock.equalTo(service))
      .withHeader("x-okapi-token", WireMock.absent())
      .withHeader("x-okapi-user-id", WireMock.absent()));
    platform.module().verify(1, getRequestedFor(urlEqualTo("/public/info"))
      .withHeader("x-okapi-token", WireMock.absent()));
  }

  @Test
  void aCallerSentSystemTokenNeverReachesASystemEndpointUnverified() {
    // mgr-tenant-entitlements sends no token to the tenant install; a caller that adds made-up ones gets them dropped
    given().header("x-okapi-tenant", "alpha").header("x-system-token", "made-up").header("x-okapi-token",
      forged(new JsonObject().put("user_id", "someone"))).contentType("application/json").body("{}")
      .post("/_/tenant").then().statusCode(200);

    platform.module().verify(1, postRequestedFor(urlEqualTo("/_/tenant"))
      .withHeader("x-system-token", WireMock.absent())
      .withHeader("x-okapi-token", WireMock.absent())
      .withHeader("x-okapi-tenant", WireMock.equalTo("alpha")));
  }

  @Test
  void theMasterRealmIsNoTenantForTheModuleOrItsEgress() {
    given().header("x-okapi-tenant", "master").contentType("application/json").body("{\"purge\":true}")
      .post("/_/tenant").then().statusCode(400).body("errors[0].code", equalTo("tenant_not_enabled"));
    // egress for master would have carried the platform administrator's token
    given().header("x-okapi-tenant", "master").get("/users/5").then().statusCode(400)
      .body("errors[0].code", equalTo("tenant_not_enabled"));

    platform.module().verify(0, anyRequestedFor(urlPathMatching("/_/tenant")));
    platform.others().verify(0, anyRequestedFor(urlPathMatching("/users/.*")));
  }

  @Test
  void egressForATenantTheModuleIsNotEntitledToIsRefused() {
    // Given a tenant the module has never been entitled to
    given().header("x-okapi-tenant", "gamma").get("/users/5").then().statusCode(400)
      .body("errors[0].code", equalTo("tenant_not_enabled"));
    platform.others().verify(0, anyRequestedFor(urlPathMatching("/users/.*")));

    // When its install is called, the module's calls out for it are accepted for a while
    platform.module().stubFor(WireMock.post("/_/tenant").willReturn(WireMock.aResponse().withStatus(204)));
    given().header("x-okapi-tenant", "gamma").contentType("application/json").body("{}").post("/_/tenant")
      .then().statusCode(204);
    // past admission: gamma has no module-access secret here, so its service token cannot be had
    given().header("x-okapi-tenant", "gamma").get("/users/5").then().statusCode(500)
      .body("errors[0].type", equalTo("SecretNotFoundException"));
  }

  @Test
  void aConnectionHeaderCannotStripAHeaderTheSidecarChecked() {
    var token = allowedToken();

    given().header("x-okapi-tenant", "alpha").header("x-okapi-token", token)
      .header("Connection", "x-okapi-tenant, x-okapi-token, x-okapi-user-id, close")
      .get("/items/7").then().statusCode(200);

    platform.module().verify(1, getRequestedFor(urlEqualTo("/items/7"))
      .withHeader("x-okapi-tenant", WireMock.equalTo("alpha"))
      .withHeader("x-okapi-token", WireMock.equalTo(token))
      .withHeader("x-okapi-user-id", WireMock.equalTo(platform.alpha().allowed().folioId())));
  }

  @ParameterizedTest
  @ValueSource(strings = {"/items/../public/info", "/items/%2e%2e/public/info", "/items/%2E%2E/loans",
    "/items/.%2e/loans", "/items/1/./loans", "/items/..;/loans", "/items/1;x=y/loans", "/items/a%2fb/loans",
    "/items/a%5Cb/loans", "/items/%00/loans", "/items/%3b/loans"})
  void pathsAModuleWouldReadAsAnotherEndpointAreRefused(String path) {
    given().urlEncodingEnabled(false).header("x-okapi-tenant", "alpha").header("x-okapi-token", allowedToken())
      .get(path).then().statusCode(400).body("errors[0].message", equalTo("Invalid request path"));

    platform.module().verify(0, anyRequestedFor(urlPathMatching("/(items|public|loans).*")));
  }

  @Test
  void percentEncodedUnreservedCharactersAreRoutedAndForwardedDecoded() {
    given().urlEncodingEnabled(false).header("x-okapi-tenant", "alpha").header("x-okapi-token", allowedToken())
      .get("/it%65ms/4%32?q=%2F").then().statusCode(200);

    // one form for routing, authorization and the module: the query is the caller's
    platform.module().verify(1, getRequestedFor(urlEqualTo("/items/42?q=%2F")));
    assertThat(platform.module().findAll(anyRequestedFor(urlPathMatching("/(it|items).*")))).hasSize(1);
  }
}
