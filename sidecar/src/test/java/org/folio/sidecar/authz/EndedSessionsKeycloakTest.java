package org.folio.sidecar.authz;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.folio.sidecar.support.SidecarCalls.get;
import static org.folio.sidecar.support.SidecarCalls.umaCalls;

import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import org.folio.sidecar.support.SidecarCalls;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.support.TestClocks;
import org.folio.sidecar.support.TestTimers;
import org.folio.sidecar.support.Waits;
import org.folio.sidecar.testkit.TestPlatform;
import org.folio.sidecar.testkit.Tokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Ended sessions with the real Keycloak and Kafka (issue 45; issue 43 rows 2 to 4): a session Keycloak ended
 * without an event, its grant past its TTL, is refused (401), not served stale, with Keycloak free and with this
 * sidecar's only Keycloak call slot taken (a busy sidecar is a 503, never a stale 200); a session ended by a logout
 * event, by a logout-all, or by Keycloak is refused on {@code ["*"]} endpoints too. Calls counted at the hop.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true, initArgs = {
  @ResourceArg(name = "sidecar.authz-cache.allow-ttl", value = "60s"),
  @ResourceArg(name = "sidecar.authz-cache.refresh-after", value = "50s"),
  @ResourceArg(name = "sidecar.authz-cache.refresh-jitter", value = "false"),
  @ResourceArg(name = "kc.max-concurrent-calls", value = "1"),
  @ResourceArg(name = "sidecar.wildcard-permission-token-only", value = "true")})
class EndedSessionsKeycloakTest {

  private static final Pattern MISSES = Pattern.compile(
    "(?m)^cache_gets_total\\{cache=\"sidecar.authz.decisions\",result=\"miss\"} ([0-9.E]+)");
  private static final Pattern STALE = Pattern.compile("(?m)^sidecar_authz_decisions_stale_served_total ([0-9.E]+)");

  private final TestPlatform platform = TestPlatform.get();

  @BeforeEach
  void freshDecisions() {
    SidecarCalls.awaitKeycloakDecides();
    SidecarCalls.forgetDecisions();
  }

  private JsonObject login() {
    return platform.tokens().login(platform.alpha(), platform.alpha().allowed());
  }

  private static double metric(Pattern pattern) {
    var matcher = pattern.matcher(SidecarCalls.metrics().extract().asString());
    return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0;
  }

  private static CompletableFuture<Response> getLater(String token, String path) {
    return CompletableFuture.supplyAsync(() -> given().header("x-okapi-tenant", "alpha")
      .header("x-okapi-token", token).get(path));
  }

  /** A grant of the user's, past its TTL, used by a session Keycloak has ended and nobody told the sidecar of. */
  private String deadSessionWithAStaleGrant(String path) {
    var dead = login();
    var token = dead.getString("access_token");
    get("alpha", token, path).statusCode(200);
    platform.tokens().logout(platform.alpha(), dead);
    TestClocks.advance(Duration.ofSeconds(70));
    return token;
  }

  @Test
  void row3AStaleGrantIsNotServedToASessionKeycloakEnded() {
    var sibling = login().getString("access_token");
    var token = deadSessionWithAStaleGrant("/items/61");
    double stale = metric(STALE);
    int before = umaCalls();

    get("alpha", token, "/items/61").statusCode(401);
    for (int i = 0; i < 10; i++) {
      get("alpha", token, "/items/61").statusCode(401);
    }

    assertThat(umaCalls() - before).as("one Keycloak call for the dead session").isEqualTo(1);
    assertThat(metric(STALE)).isEqualTo(stale);
    get("alpha", sibling, "/items/61").statusCode(200);
  }

  @Test
  void row3WhileThisSidecarsOnlyCallSlotIsTakenTheDeadSessionIsNeverServed() {
    var token = deadSessionWithAStaleGrant("/items/62");
    var other = platform.tokens().login(platform.alpha(), platform.alpha().denied()).getString("access_token");
    double stale = metric(STALE);
    platform.keycloakHop().holdUma();
    try {
      // another user's miss takes the one slot; the dead session's re-check waits in this sidecar's queue
      var occupying = getLater(other, "/items/63");
      await().atMost(Waits.STATE).until(() -> platform.keycloakHop().heldUma() >= 1);
      double misses = metric(MISSES);
      var answer = getLater(token, "/items/62");
      await().atMost(Waits.STATE).until(() -> metric(MISSES) > misses);

      // every wait ends now: the queued re-check was never sent, so this is this sidecar being busy (503)
      TestTimers.expireAll();

      assertThat(answer.join().statusCode()).isEqualTo(503);
      assertThat(occupying.join().statusCode()).isEqualTo(503);
    } finally {
      platform.keycloakHop().releaseUma();
    }
    // with the slot free, the re-check reaches Keycloak, which says the session is not active
    await().atMost(Waits.STATE).untilAsserted(() -> get("alpha", token, "/items/62").statusCode(401));
    assertThat(metric(STALE)).as("never served stale").isEqualTo(stale);
  }

  @Test
  void row4ALoggedOutSessionIsRefusedOnWildcardEndpoints() {
    var login = login();
    var token = login.getString("access_token");
    get("alpha", token, "/whoami").statusCode(200);
    platform.tokens().logout(platform.alpha(), login);

    try (var events = platform.events()) {
      events.logout("alpha", platform.alpha().allowed().folioId(), Tokens.claims(token).getString("sid"));
    }

    await().atMost(Waits.STATE).pollInterval(Duration.ofMillis(50))
      .untilAsserted(() -> get("alpha", token, "/whoami").statusCode(401));
    get("alpha", token, "/items/64").statusCode(401);
  }

  @Test
  void row4ASessionKeycloakEndedIsRefusedOnWildcardEndpointsOnceKeycloakSaidSo() {
    var login = login();
    var token = login.getString("access_token");
    platform.tokens().logout(platform.alpha(), login);

    get("alpha", token, "/items/65").statusCode(401);

    get("alpha", token, "/whoami").statusCode(401);
  }

  @Test
  void aLogoutAllEndsEverySessionOfTheUserBeforeIt() {
    var firstLogin = login();
    var secondLogin = login();
    var first = firstLogin.getString("access_token");
    var second = secondLogin.getString("access_token");
    get("alpha", first, "/items/66").statusCode(200);
    // mod-login-keycloak ends them in Keycloak too, after sending the event
    platform.tokens().logout(platform.alpha(), firstLogin);
    platform.tokens().logout(platform.alpha(), secondLogin);

    try (var events = platform.events()) {
      events.send("folio.alpha.mod-login-keycloak.logout", new JsonObject()
        .put("userId", platform.alpha().allowed().folioId()).put("type", "LOGOUT_ALL").encode());
    }

    // a token issued within the clock skew of the event is Keycloak's to decide: either way it is refused, and
    // then it is refused on ["*"] endpoints too
    await().atMost(Waits.STATE).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
      get("alpha", first, "/items/66").statusCode(401);
      get("alpha", second, "/items/66").statusCode(401);
      get("alpha", second, "/whoami").statusCode(401);
    });
  }
}
