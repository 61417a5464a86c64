package org.folio.sidecar.authz;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.folio.sidecar.support.SidecarCalls.get;
import static org.folio.sidecar.support.SidecarCalls.umaCalls;
import static org.hamcrest.Matchers.containsString;

import org.folio.sidecar.support.TestClocks;
import org.folio.sidecar.support.Waits;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import org.folio.sidecar.testkit.FolioRealms;
import org.folio.sidecar.support.SidecarCalls;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.folio.sidecar.testkit.Tokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The decision cache against the real Keycloak, counting UMA calls exactly through the hop. */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class DecisionCacheTest {

  private final TestPlatform platform = TestPlatform.get();

  @BeforeEach
  void freshDecisions() {
    SidecarCalls.forgetDecisions();
  }

  @TestHTTPResource("/")
  URL sidecar;

  private String loginAllowed() {
    return platform.tokens().login(platform.alpha(), platform.alpha().allowed()).getString("access_token");
  }

  @Test
  void refreshedTokenOfTheSameSessionHitsTheCache() {
    // Given a decision cached for a user's session
    var alpha = platform.alpha();
    var login = platform.tokens().login(alpha, alpha.allowed());
    int before = umaCalls();
    get("alpha", login.getString("access_token"), "/items/3").statusCode(200);
    assertThat(umaCalls() - before).isEqualTo(1);

    // When Keycloak refreshes the token (new exp, iat and jti; same session)
    var refreshed = platform.tokens().refresh(alpha, login).getString("access_token");
    assertThat(Tokens.claims(refreshed).getString("jti"))
      .isNotEqualTo(Tokens.claims(login.getString("access_token")).getString("jti"));
    get("alpha", refreshed, "/items/3").statusCode(200);

    // Then Keycloak is not asked again
    assertThat(umaCalls() - before).isEqualTo(1);
  }

  @Test
  void newSessionHitsOtherUserAndOtherTenantEachMissOnce() {
    var alpha = platform.alpha();
    var beta = platform.beta();
    get("alpha", loginAllowed(), "/items/4").statusCode(200);

    int before = umaCalls();
    get("alpha", loginAllowed(), "/items/4").statusCode(200);
    assertThat(umaCalls() - before).as("same user, new login session (issue 45)").isZero();

    before = umaCalls();
    get("alpha", platform.tokens().login(alpha, alpha.denied()).getString("access_token"), "/items/4").statusCode(403);
    assertThat(umaCalls() - before).as("another user").isEqualTo(1);

    before = umaCalls();
    var betaToken = platform.tokens().login(beta, beta.allowed()).getString("access_token");
    assertThat(Tokens.claims(betaToken).getString("user_id")).isEqualTo(alpha.allowed().folioId());
    get("beta", betaToken, "/items/4").statusCode(200);
    assertThat(umaCalls() - before).as("same user id in another tenant").isEqualTo(1);
  }

  @Test
  void serviceTokensOfSixtyTenantsCostOneCallPerTenantAndPermission() throws Exception {
    int calls = SidecarCalls.serviceTokensOfSixtyTenants();

    assertThat(calls).isEqualTo(TestPlatform.SERVICE_TENANTS * 2);
  }

  @Test
  void concurrentColdRequestsShareOneKeycloakCall() {
    var token = loginAllowed();
    var http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    var request = HttpRequest.newBuilder(URI.create(sidecar + "items/50")).timeout(Duration.ofSeconds(10))
      .header("x-okapi-tenant", "alpha").header("x-okapi-token", token).build();
    int before = umaCalls();

    var answers = new ArrayList<CompletableFuture<HttpResponse<Void>>>();
    for (int i = 0; i < 50; i++) {
      answers.add(http.sendAsync(request, HttpResponse.BodyHandlers.discarding()));
    }

    assertThat(answers).allSatisfy(answer -> assertThat(answer.join().statusCode()).isEqualTo(200));
    assertThat(umaCalls() - before).isEqualTo(1);
  }

  @Test
  void aSessionKeycloakEndedCostsOneCallAndItsSiblingIsStillServed() {
    // Given two sessions of a user, one of them ended in Keycloak with no event to tell the sidecar
    var alpha = platform.alpha();
    var login = platform.tokens().login(alpha, alpha.allowed());
    var token = login.getString("access_token");
    var sibling = loginAllowed();
    get("alpha", token, "/items/6").statusCode(200);
    platform.tokens().logout(alpha, login);
    get("alpha", token, "/items/6").statusCode(200); // the user's grant: only an event or Keycloak tells

    // When its grant is asked again (an operator flushed the user) and Keycloak answers "not active"
    SidecarCalls.admin().queryParam("tenant", "alpha").queryParam("user", alpha.allowed().folioId())
      .post("/admin/cache/flush").then().statusCode(200);
    int before = umaCalls();
    get("alpha", token, "/items/6").statusCode(401);
    assertThat(umaCalls() - before).isEqualTo(1);

    // Then the session is remembered as ended: refused on every permission without asking Keycloak again
    for (int i = 0; i < 20; i++) {
      get("alpha", token, "/items/6").statusCode(401);
      get("alpha", token, "/items").statusCode(401);
    }
    assertThat(umaCalls() - before).as("one Keycloak call for the dead session").isEqualTo(1);
    get("alpha", sibling, "/items/6").statusCode(200);
    assertThat(SidecarCalls.metrics().extract().asString()).contains("sidecar_authz_ended_sessions ");
  }

  @Test
  void denyIsCachedOnlyForItsTtlThenANewGrantIsAllowed() {
    var alpha = platform.alpha();
    var token = platform.tokens().login(alpha, alpha.denied()).getString("access_token");
    get("alpha", token, "/items").statusCode(403);
    var realms = new FolioRealms(platform.keycloakAdmin());
    var permission = realms.grant(alpha, alpha.denied(), "/items", "GET");
    try {
      int before = umaCalls();
      get("alpha", token, "/items").statusCode(403);
      assertThat(umaCalls() - before).as("the denial is still cached").isZero();

      TestClocks.advance(Duration.ofSeconds(61));
      await().atMost(Waits.STATE).pollInterval(Duration.ofMillis(200))
        .untilAsserted(() -> get("alpha", token, "/items").statusCode(200));
    } finally {
      realms.revoke(alpha, permission);
    }
  }

  @Test
  void expiredOrForgedTokenNeverHitsACachedGrant() {
    // Given a cached grant for a session
    var alpha = platform.alpha();
    var token = loginAllowed();
    get("alpha", token, "/items/8").statusCode(200);
    int before = umaCalls();
    long now = System.currentTimeMillis() / 1000;

    // When the same identity comes with an expired token, or with a tampered one
    var expired = Tokens.sign(Tokens.claims(token).put("exp", now - 60).put("iat", now - 400),
      alpha.signingKey().getPrivate(), alpha.keyId(), "RS256");
    var extended = Tokens.withPayload(token, Tokens.claims(token).put("exp", now + 86_400));

    // Then both are refused before the cache is consulted
    get("alpha", expired, "/items/8").statusCode(401);
    get("alpha", extended, "/items/8").statusCode(401);
    assertThat(umaCalls() - before).isZero();
  }

  @Test
  void keycloakDownCachedGrantServesUncachedFailsFast() {
    var token = loginAllowed();
    get("alpha", token, "/items/10").statusCode(200);
    platform.keycloakHop().cut();
    try {
      get("alpha", token, "/items/10").statusCode(200);
      double refused = SidecarCalls.keycloakDecisions("refused");
      given().header("x-okapi-tenant", "alpha").header("x-okapi-token", token).put("/items/10").then().statusCode(503);
      // fast because refused, not because of a deadline: named so, instead of timed (a busy machine is slow)
      assertThat(SidecarCalls.keycloakDecisions("refused")).isEqualTo(refused + 1);
    } finally {
      platform.keycloakHop().restore();
    }
  }

  @Test
  void metricsShowCacheAndKeycloakCalls() {
    get("alpha", loginAllowed(), "/items/11").statusCode(200);

    var metrics = SidecarCalls.metrics()
      .body(containsString("sidecar_keycloak_decisions_seconds_count{outcome=\"permit\"}"))
      .body(containsString("cache_gets_total{cache=\"sidecar.authz.decisions\",result=\"hit\"}"))
      .body(containsString("cache_size{cache=\"sidecar.authz.decisions\"}"))
      .extract().asString();
    metrics.lines().filter(line -> line.startsWith("sidecar_keycloak_decisions_seconds{") && line.contains("quantile"))
      .forEach(line -> System.out.println("UMA latency: " + line));
  }
}
