package org.folio.sidecar.token;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.folio.sidecar.config.KeycloakConfig;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.testkit.ConfigMappings;
import org.folio.sidecar.testkit.FakeTicker;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.RsaJsonWebKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Realm names come from tokens before they are verified: made-up realms must neither make the sidecar ask Keycloak
 * without bound nor push the keys of real realms out.
 */
class RealmKeysTest {

  private static final String CERTS = "/realms/%s/protocol/openid-connect/certs";

  private final WireMockServer keycloak = new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort());
  private final FakeTicker ticker = new FakeTicker();
  private Vertx vertx;
  private RealmKeys keys;

  @BeforeEach
  void start() throws Exception {
    keycloak.start();
    var generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    var jwk = new RsaJsonWebKey((RSAPublicKey) generator.generateKeyPair().getPublic());
    jwk.setKeyId("alpha-key");
    keycloak.stubFor(get(urlPathMatching("/realms/.*")).willReturn(aResponse().withStatus(404)));
    keycloak.stubFor(get(urlEqualTo(CERTS.formatted("alpha"))).willReturn(aResponse().withStatus(200)
      .withHeader("content-type", "application/json").withBody(new JsonWebKeySet(jwk).toJson())));
    vertx = Vertx.vertx();
    keys = keys(realm -> false);
  }

  // room for 3 realms' keys; at most 5 unknown realms asked for per 10 s, 2 of them by one source; keys kept 1 min
  private RealmKeys keys(EntitledRealms entitled) {
    var config = ConfigMappings.load(KeycloakConfig.class, Map.of("kc.url", keycloak.baseUrl(),
      "kc.realms-max-size", "3", "kc.jwks-new-realm-fetches", "5", "kc.jwks-new-realm-fetches-per-source", "2",
      "kc.jwks-min-refetch-interval", "10s", "kc.jwks-refresh-interval", "1m"));
    return new RealmKeys(WebClient.create(vertx), new KeycloakCalls((delay, task) -> () -> {
    }, config), config, ticker, entitled, vertx);
  }

  @AfterEach
  void stop() {
    vertx.close();
    keycloak.stop();
  }

  @Test
  void madeUpRealmsAreAskedForAtMostTheBudgetAndNeverEvictARealRealm() throws Exception {
    // Given the real realm's keys are known
    assertThat(await(keys.key("alpha", "alpha-key", "10.0.0.1")).succeeded()).isTrue();

    // When tokens name 200 made-up realms at once, some of them again
    var answers = new ArrayList<Future<RealmKeys.SigningKey>>();
    for (int i = 0; i < 200; i++) {
      answers.add(keys.key("made_up_" + (i % 100), "any", "10.0.1." + (i % 50)));
    }
    for (var answer : answers) {
      await(answer);
    }

    // Then all are refused with 401, Keycloak was asked for 4 of them only (alpha took the window's fifth), and
    // alpha is still served from memory
    assertThat(answers).allSatisfy(answer -> assertThat(((SidecarError) answer.cause()).status()).isEqualTo(401));
    assertThat(keycloak.findAll(getRequestedFor(urlPathMatching("/realms/made_up_.*")))).hasSize(4);
    assertThat(await(keys.key("alpha", "alpha-key", "10.0.0.1")).succeeded()).isTrue();
    assertThat(keycloak.findAll(getRequestedFor(urlEqualTo(CERTS.formatted("alpha"))))).hasSize(1);

    // And a realm Keycloak said it does not know is not asked for again within the window
    await(keys.key("made_up_0", "any", "10.0.2.1"));
    assertThat(keycloak.findAll(getRequestedFor(urlEqualTo(CERTS.formatted("made_up_0"))))).hasSize(1);

    // When the window has passed, Then new realms may be asked for again (a tenant created meanwhile is found)
    ticker.advance(Duration.ofSeconds(11));
    await(keys.key("made_up_150", "any", "10.0.2.1"));
    assertThat(keycloak.findAll(getRequestedFor(urlEqualTo(CERTS.formatted("made_up_150"))))).hasSize(1);
  }

  @Test
  void aRealmLoadedOnceIsRefreshedOutsideTheBudgetForUnknownNames() throws Exception {
    // Given alpha's keys were loaded and have passed KC_JWKS_REFRESH_INTERVAL
    assertThat(await(keys.key("alpha", "alpha-key", "10.0.0.1")).succeeded()).isTrue();
    ticker.advance(Duration.ofSeconds(61));

    // When made-up realms from many sources have spent the window's budget
    spendTheBudget();

    // Then a token of alpha still gets its key, fetched anew
    assertThat(await(keys.key("alpha", "alpha-key", "10.0.0.1")).succeeded()).isTrue();
    assertThat(keycloak.findAll(getRequestedFor(urlEqualTo(CERTS.formatted("alpha"))))).hasSize(2);
  }

  @Test
  void anEntitledTenantsRealmIsFetchedOutsideTheBudgetForUnknownNames() throws Exception {
    keys = keys(realm -> realm.equals("alpha"));
    // Given made-up realms have spent the window's budget before alpha's keys were ever asked for (a start)
    spendTheBudget();

    // Then alpha, an entitled tenant, gets its keys
    assertThat(await(keys.key("alpha", "alpha-key", "10.0.0.1")).succeeded()).isTrue();
  }

  @Test
  void oneSourceCannotSpendTheWholeBudget() throws Exception {
    // When one address names 10 made-up realms
    for (int i = 0; i < 10; i++) {
      var refused = await(keys.key("flood_" + i, "any", "10.0.3.1"));
      assertThat(((SidecarError) refused.cause()).status()).isEqualTo(401);
    }

    // Then Keycloak was asked for 2 of them (its share), and another address still gets a new realm looked up
    assertThat(keycloak.findAll(getRequestedFor(urlPathMatching("/realms/flood_.*")))).hasSize(2);
    await(keys.key("other_0", "any", "10.0.3.2"));
    assertThat(keycloak.findAll(getRequestedFor(urlEqualTo(CERTS.formatted("other_0"))))).hasSize(1);
  }

  /** Five made-up realms from five addresses: the window's whole budget, each answered 404 by Keycloak. */
  private void spendTheBudget() throws Exception {
    for (int i = 0; i < 8; i++) {
      await(keys.key("spent_" + i, "any", "10.0.4." + i));
    }
    assertThat(keycloak.findAll(getRequestedFor(urlPathMatching("/realms/spent_.*")))).hasSizeLessThanOrEqualTo(5);
  }

  private static <T> Future<T> await(Future<T> future) throws Exception {
    future.toCompletionStage().toCompletableFuture().handle((v, e) -> v).get(10, TimeUnit.SECONDS);
    return future;
  }
}
