package org.folio.sidecar.ingress;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
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
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Random;
import javax.crypto.spec.SecretKeySpec;
import org.folio.sidecar.support.AccessLines;
import org.folio.sidecar.testkit.FolioRealms;
import org.folio.sidecar.support.LogCapture;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.support.TestClocks;
import org.folio.sidecar.testkit.TestPlatform;
import org.folio.sidecar.testkit.Tokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class IngressTest {

  private final TestPlatform platform = TestPlatform.get();

  @BeforeEach
  void resetModule() {
    platform.resetModule();
  }

  private String allowedToken() {
    return platform.tokens().login(platform.alpha(), platform.alpha().allowed()).getString("access_token");
  }

  @Test
  void allowedUserReachesModuleWithVerifiedIdentity() {
    // Given a user of tenant alpha who holds GET /items/{id}
    var token = allowedToken();

    // When the user calls the module through the sidecar, trying to pass as someone else
    given().header("x-okapi-tenant", "alpha").header("Authorization", "Bearer " + token)
      .header("x-okapi-user-id", "someone-else").header("x-okapi-permissions", "[\"all.the.things\"]")
      .get("/items/42")
      .then().statusCode(200).body("module", equalTo("mod-items"));

    // Then the module sees the verified user id, the tenant and the token, and nothing the caller made up
    platform.module().verify(1, getRequestedFor(urlEqualTo("/items/42"))
      .withHeader("x-okapi-user-id", WireMock.equalTo(platform.alpha().allowed().folioId()))
      .withHeader("x-okapi-tenant", WireMock.equalTo("alpha"))
      .withHeader("x-okapi-token", WireMock.equalTo(token))
      .withHeader("x-okapi-request-id", WireMock.matching("\\d{6}/items"))
      .withHeader("x-okapi-permissions", WireMock.absent())
      .withHeader("authorization", WireMock.absent()));
  }

  @Test
  void requestIdOfTheCallerIsPropagated() {
    given().header("x-okapi-tenant", "alpha").header("x-okapi-token", allowedToken())
      .header("x-okapi-request-id", "123456/items")
      .get("/items/7").then().statusCode(200);

    // Okapi's format: the caller's id, then this hop's own
    platform.module().verify(getRequestedFor(urlEqualTo("/items/7"))
      .withHeader("x-okapi-request-id", WireMock.matching("123456/items;\\d{6}/items")));
  }

  @Test
  void userWithoutThePermissionIsDeniedAndTheModuleNeverCalled() {
    var denied = platform.tokens().login(platform.alpha(), platform.alpha().denied()).getString("access_token");

    given().header("x-okapi-tenant", "alpha").header("x-okapi-token", denied).get("/items/1")
      .then().statusCode(403).body("errors[0].code", equalTo("authorization_error"))
      .body("errors[0].message", equalTo("Access Denied")).body("total_records", equalTo(1));
    // the permitted user lacks exactly this one
    given().header("x-okapi-tenant", "alpha").header("x-okapi-token", allowedToken()).delete("/items/1")
      .then().statusCode(403);

    platform.module().verify(0, WireMock.anyRequestedFor(urlPathMatching("/items.*")));
  }

  @Test
  void requestWithoutTokenToProtectedEndpointIs401() {
    given().header("x-okapi-tenant", "alpha").get("/items/1")
      .then().statusCode(401).body("errors[0].code", equalTo("authorization_error"));
    platform.module().verify(0, getRequestedFor(urlEqualTo("/items/1")));
  }

  @Test
  void expiredTokenIs401() {
    var tenant = platform.alpha();
    var claims = Tokens.claims(allowedToken());
    long now = System.currentTimeMillis() / 1000;
    claims.put("iat", now - 900).put("exp", now - 300);
    var expired = Tokens.sign(claims, tenant.signingKey().getPrivate(), tenant.keyId(), "RS256");

    try (var capture = LogCapture.install()) {
      given().header("x-okapi-tenant", "alpha").header("x-okapi-token", expired).get("/items/1")
        .then().statusCode(401).body("errors[0].message", equalTo("Unauthorized"));
      AccessLines.assertReason(capture, "GET /items/1 401", "token expired");
    }
  }

  @Test
  void rememberedVerificationNeverOutlivesTheToken() {
    // Given a token that is valid for two more seconds and has been used once
    var tenant = platform.alpha();
    long now = TestClocks.epochSecond();
    var shortLived = Tokens.sign(Tokens.claims(allowedToken()).put("iat", System.currentTimeMillis() / 1000)
      .put("exp", now + 2),
      tenant.signingKey().getPrivate(), tenant.keyId(), "RS256");
    given().header("x-okapi-tenant", "alpha").header("x-okapi-token", shortLived).get("/public/info")
      .then().statusCode(200);

    // When the sidecar's clock passes its exp (and the 1 s skew), Then the same text is refused although its
    // signature was checked before
    TestClocks.advance(Duration.ofSeconds(4));
    try (var capture = LogCapture.install()) {
      given().header("x-okapi-tenant", "alpha").header("x-okapi-token", shortLived).get("/public/info")
        .then().statusCode(401);
      AccessLines.assertReason(capture, "GET /public/info 401", "token expired");
    }
  }

  @Test
  void forgedTokensAre401() {
    var alpha = platform.alpha();
    var beta = platform.beta();
    var claims = Tokens.claims(allowedToken());
    var tampered = Tokens.withPayload(allowedToken(),
      claims.copy().put("user_id", "00000000-0000-0000-0000-000000000001"));
    var signedByOtherRealm = Tokens.sign(claims, beta.signingKey().getPrivate(), beta.keyId(), "RS256");
    var signedByStranger = Tokens.sign(claims, FolioRealmsKeys.stranger().getPrivate(), alpha.keyId(), "RS256");

    for (var forged : new String[]{tampered, signedByOtherRealm, signedByStranger}) {
      given().header("x-okapi-tenant", "alpha").header("x-okapi-token", forged).get("/items/1")
        .then().statusCode(401);
    }
    platform.module().verify(0, getRequestedFor(urlEqualTo("/items/1")));
  }

  @Test
  void unsignedAndSymmetricTokensAre401() {
    var alpha = platform.alpha();
    var claims = Tokens.claims(allowedToken());
    var header = java.util.Base64.getUrlEncoder().withoutPadding()
      .encodeToString(new JsonObject().put("alg", "none").put("kid", alpha.keyId()).encode().getBytes());
    var payload = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(claims.encode().getBytes());
    var unsigned = header + "." + payload + ".";
    // the classic confusion attack: the realm's public key used as an HMAC secret
    var hmacKey = new SecretKeySpec(alpha.signingKey().getPublic().getEncoded(), "HmacSHA256");
    var symmetric = Tokens.sign(claims, hmacKey, alpha.keyId(), "HS256");

    for (var token : new String[]{unsigned, symmetric, "not-a-jwt", "a.b.c"}) {
      given().header("x-okapi-tenant", "alpha").header("x-okapi-token", token).get("/items/1")
        .then().statusCode(401).body("errors[0].code", equalTo("authorization_error"));
    }
    platform.module().verify(0, getRequestedFor(urlEqualTo("/items/1")));
  }

  @Test
  void tokenOfAnotherTenantIs401() {
    var betaToken = platform.tokens().login(platform.beta(), platform.beta().allowed()).getString("access_token");

    given().header("x-okapi-tenant", "alpha").header("x-okapi-token", betaToken).get("/items/1")
      .then().statusCode(401);
    platform.module().verify(0, getRequestedFor(urlEqualTo("/items/1")));
  }

  @Test
  void unknownPathOrMethodIs404() {
    given().header("x-okapi-tenant", "alpha").get("/nowhere/1")
      .then().statusCode(404).body("errors[0].code", equalTo("route_not_found_error"))
      .body("errors[0].message", equalTo("Route is not found [method: GET, path: /nowhere/1]"));
    given().header("x-okapi-tenant", "alpha").patch("/items/1").then().statusCode(404);
  }

  @Test
  void endpointWithoutPermissionsIsForwardedWithoutToken() {
    given().header("x-okapi-tenant", "alpha").get("/public/info").then().statusCode(200);

    platform.module().verify(1,
      getRequestedFor(urlEqualTo("/public/info")).withHeader("x-okapi-user-id", WireMock.absent()));
  }

  @Test
  void malformedHeadersAre400() {
    var token = allowedToken();
    given().header("x-okapi-tenant", "alpha").header("Authorization", "Basic dXNlcjpwYXNz").get("/items/1")
      .then().statusCode(400).body("errors[0].code", equalTo("service_error"));
    given().header("x-okapi-tenant", "alpha").header("Authorization", "Bearer " + token)
      .header("x-okapi-token", allowedToken() + "x").get("/items/1")
      .then().statusCode(400).body("errors[0].message", equalTo("X-Okapi-Token is not equal to Authorization token"));
    given().header("x-okapi-tenant", "../master").header("x-okapi-token", token).get("/items/1")
      .then().statusCode(400);
    given().header("x-okapi-token", token).get("/items/1").then().statusCode(400);
    platform.module().verify(0, getRequestedFor(urlEqualTo("/items/1")));
  }

  @Test
  void tenMegabyteBodiesPassByteIdenticalBothWays() throws Exception {
    var body = new byte[10 * 1024 * 1024];
    new Random(7).nextBytes(body);
    platform.module().stubFor(get(urlEqualTo("/downloads/big")).willReturn(aResponse().withStatus(200)
      .withHeader("content-type", "application/octet-stream").withBody(body)));
    var token = allowedToken();

    given().header("x-okapi-tenant", "alpha").header("x-okapi-token", token)
      .contentType("application/octet-stream").body(body).post("/uploads").then().statusCode(200);
    var downloaded = given().header("x-okapi-tenant", "alpha").header("x-okapi-token", token)
      .get("/downloads/big").then().statusCode(200).extract().asByteArray();

    var received = platform.module().findAll(postRequestedFor(urlEqualTo("/uploads"))).get(0).getBody();
    assertThat(sha256(received)).isEqualTo(sha256(body));
    assertThat(sha256(downloaded)).isEqualTo(sha256(body));
  }

  @Test
  void systemInterfaceIsForwardedWithoutAuthorization() {
    given().header("x-okapi-tenant", "alpha").post("/_/tenant").then().statusCode(200);
    platform.module().verify(1, postRequestedFor(urlEqualTo("/_/tenant")));
  }

  static String sha256(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }

  /** A key no realm knows. */
  static final class FolioRealmsKeys {
    private static final java.security.KeyPair STRANGER = generate();

    static java.security.KeyPair stranger() {
      return STRANGER;
    }

    private static java.security.KeyPair generate() {
      try {
        var generator = java.security.KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return generator.generateKeyPair();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
