package org.folio.sidecar.token;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPublicKey;
import java.util.Map;
import org.folio.sidecar.support.AccessLines;
import org.folio.sidecar.support.KeycloakAsLocalhost;
import org.folio.sidecar.support.LogCapture;
import org.folio.sidecar.testkit.TestPlatform;
import org.folio.sidecar.testkit.TestTenant;
import org.folio.sidecar.testkit.Tokens;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.RsaJsonWebKey;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * folio-helm-v2's setting: KC_URI_VALIDATION_ENABLED=false because tokens carry Keycloak's public address while
 * KC_URL is another one. Here the sidecar calls Keycloak as {@code localhost} and Keycloak issues its tokens as
 * {@code 127.0.0.1}, so every real token's issuer differs from KC_URL in origin, as in a cluster.
 */
@QuarkusTest
@WithTestResource(value = KeycloakAsLocalhost.class, parallel = true, initArgs = @ResourceArg(name = "kc.uri-validation-enabled", value = "false"))
class IssuerOfPublicAddressTest {

  private static WireMockServer attacker;
  private final TestPlatform platform = TestPlatform.get();

  @BeforeAll
  static void startAttacker() throws Exception {
    attacker = new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort());
    attacker.start();
    var jwk = new RsaJsonWebKey((RSAPublicKey) Keys.ATTACKER.getPublic());
    jwk.setKeyId("attacker-key");
    jwk.setAlgorithm("RS256");
    jwk.setUse("sig");
    attacker.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200)
      .withHeader("content-type", "application/json").withBody(new JsonWebKeySet(jwk).toJson())));
  }

  @AfterAll
  static void stopAttacker() {
    attacker.stop();
  }

  @BeforeEach
  void resetModule() {
    platform.resetModule();
    attacker.resetRequests();
  }

  private String login(TestTenant tenant, TestTenant.User user) {
    return platform.tokens().login(tenant, user).getString("access_token");
  }

  @Test
  void realTokensOfThePublicAddressAreAllowedOrDeniedAsTheirPermissionsSay() {
    var allowed = login(platform.alpha(), platform.alpha().allowed());
    assertThat(Tokens.claims(allowed).getString("iss")).startsWith("http://127.0.0.1:").endsWith("/realms/alpha");

    given().header("x-okapi-tenant", "alpha").header("x-okapi-token", allowed).get("/items/42")
      .then().statusCode(200).body("module", equalTo("mod-items"));
    given().header("x-okapi-tenant", "alpha")
      .header("x-okapi-token", login(platform.alpha(), platform.alpha().denied()))
      .get("/items/42")
      .then().statusCode(403).body("errors[0].message", equalTo("Access Denied"));

    platform.module().verify(1, getRequestedFor(urlEqualTo("/items/42")));
  }

  @Test
  void tokenSignedByAKeyServedAtItsOwnIssuerIsRefusedAndThatServerNeverAsked() {
    // Given the claims of a real token, re-issued by an attacker's server that serves its own JWKS
    var claims = Tokens.claims(login(platform.alpha(), platform.alpha().allowed()))
      .put("iss", attacker.baseUrl() + "/realms/alpha");
    var withItsOwnKeyId = Tokens.sign(claims, Keys.ATTACKER.getPrivate(), "attacker-key", "RS256");
    var withTheRealmsKeyId = Tokens.sign(claims, Keys.ATTACKER.getPrivate(), platform.alpha().keyId(), "RS256");

    try (var capture = LogCapture.install()) {
      for (var forged : new String[]{withItsOwnKeyId, withTheRealmsKeyId}) {
        given().header("x-okapi-tenant", "alpha").header("x-okapi-token", forged).get("/items/1")
          .then().statusCode(401).body("errors[0].message", equalTo("Unauthorized"));
      }
      AccessLines.assertReason(capture, "GET /items/1 401", "token signed with an unknown key");
    }

    // Then keys came from KC_URL only: the attacker's server received nothing
    assertThat(attacker.findAll(anyRequestedFor(anyUrl()))).isEmpty();
    platform.module().verify(0, anyRequestedFor(urlPathMatching("/items.*")));
  }

  @Test
  void tokenOfAnotherRealmThanTheTenantIs401() {
    var betaToken = login(platform.beta(), platform.beta().allowed());

    given().header("x-okapi-tenant", "alpha").header("x-okapi-token", betaToken).get("/items/1")
      .then().statusCode(401);
    platform.module().verify(0, getRequestedFor(urlEqualTo("/items/1")));
  }

  @Test
  void issuerWhosePathIsNotExactlyARealmIs401() {
    var claims = Tokens.claims(login(platform.alpha(), platform.alpha().allowed()));
    var issuer = claims.getString("iss");
    var tenant = platform.alpha();
    for (var bent : new String[]{issuer + "/", issuer + "/x", issuer.replace("/realms/", "/auth/realms/"),
      issuer + "?a=b", issuer.replace("http://", "http://user@"), issuer.replace("http://", "ftp://")}) {
      var token = Tokens.sign(claims.copy().put("iss", bent), tenant.signingKey().getPrivate(), tenant.keyId(),
        "RS256");
      given().header("x-okapi-tenant", "alpha").header("x-okapi-token", token).get("/items/1")
        .then().statusCode(401);
    }
    platform.module().verify(0, getRequestedFor(urlEqualTo("/items/1")));
  }

  @Test
  void idTokenOfTheRealmIs401() {
    var tenant = platform.alpha();
    var login = platform.keycloakAdmin().token(tenant.name(), Map.of("grant_type", "password",
      "client_id", tenant.loginClient(), "client_secret", TestTenant.LOGIN_SECRET, "scope", "openid",
      "username", tenant.allowed().username(), "password", TestTenant.PASSWORD));
    var idToken = login.getString("id_token");
    assertThat(Tokens.claims(idToken).getString("typ")).isEqualTo("ID");

    try (var capture = LogCapture.install()) {
      given().header("x-okapi-tenant", "alpha").header("x-okapi-token", idToken).get("/items/1")
        .then().statusCode(401);
      AccessLines.assertReason(capture, "GET /items/1 401", "not an access token");
    }
    // the access token of the same login passes
    given().header("x-okapi-tenant", "alpha").header("x-okapi-token", login.getString("access_token"))
      .get("/items/1").then().statusCode(200);
  }

  /** A key pair no realm knows. */
  static final class Keys {
    static final java.security.KeyPair ATTACKER = generate();

    private static java.security.KeyPair generate() {
      try {
        var generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return generator.generateKeyPair();
      } catch (java.security.NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
