package org.folio.sidecar.token;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.folio.sidecar.config.KeycloakConfig;
import org.folio.sidecar.testkit.ConfigMappings;
import org.folio.sidecar.testkit.FakeTicker;
import org.folio.sidecar.testkit.Tokens;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.RsaJsonWebKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * KC_ISSUER_ORIGINS with KC_URI_VALIDATION_ENABLED=false: tokens of the listed public origins (and KC_URL's own)
 * pass, any other origin is refused even when the realm's own key signed the token.
 */
class IssuerOriginsTest {

  private final WireMockServer keycloak = new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort());
  private Vertx vertx;
  private KeyPair key;
  private TokenVerifier verifier;

  @BeforeEach
  void start() throws Exception {
    keycloak.start();
    var generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    key = generator.generateKeyPair();
    var jwk = new RsaJsonWebKey((RSAPublicKey) key.getPublic());
    jwk.setKeyId("alpha-key");
    keycloak.stubFor(get(urlEqualTo("/realms/alpha/protocol/openid-connect/certs")).willReturn(aResponse()
      .withStatus(200).withHeader("content-type", "application/json").withBody(new JsonWebKeySet(jwk).toJson())));
    vertx = Vertx.vertx();
    var config = ConfigMappings.load(KeycloakConfig.class, Map.of("kc.url", keycloak.baseUrl(),
      "kc.uri-validation-enabled", "false", "kc.issuer-origins", "https://keycloak.example.org"));
    var ticker = new FakeTicker();
    verifier = new TokenVerifier(new RealmKeys(WebClient.create(vertx), new KeycloakCalls((delay, task) -> () -> {
    }, config), config, ticker, realm -> false, vertx), config, ticker,
      Clock.systemUTC());
  }

  @AfterEach
  void stop() {
    vertx.close();
    keycloak.stop();
  }

  @Test
  void onlyListedOriginsAndKcUrlsOwnPass() throws Exception {
    assertThat(verified("https://keycloak.example.org/realms/alpha")).isTrue();
    assertThat(verified("https://KEYCLOAK.example.org:443/realms/alpha")).isTrue();
    assertThat(verified(keycloak.baseUrl() + "/realms/alpha")).isTrue();
    assertThat(verified("https://keycloak.example.org.evil/realms/alpha")).isFalse();
    assertThat(verified("https://evil.example.org/realms/alpha")).isFalse();
    assertThat(verified("http://keycloak.example.org/realms/alpha")).isFalse();
    // the realm's keys were asked for once, from KC_URL
    assertThat(keycloak.getAllServeEvents()).hasSize(1);
  }

  private boolean verified(String issuer) throws Exception {
    long now = System.currentTimeMillis() / 1000;
    var claims = new JsonObject().put("iss", issuer).put("typ", "Bearer").put("azp", "alpha-application")
      .put("sub", "user").put("user_id", "u1").put("sid", "s1").put("iat", now).put("exp", now + 300);
    var future = verifier.verify(Tokens.sign(claims, key.getPrivate(), "alpha-key", "RS256"), "127.0.0.1");
    future.toCompletionStage().toCompletableFuture().handle((v, e) -> v).get(10, TimeUnit.SECONDS);
    return future.succeeded();
  }
}
