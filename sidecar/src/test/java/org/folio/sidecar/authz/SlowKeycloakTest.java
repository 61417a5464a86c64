package org.folio.sidecar.authz;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.folio.sidecar.support.SidecarCalls.get;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.folio.sidecar.support.LogCapture;
import org.folio.sidecar.support.SidecarCalls;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.support.TestClocks;
import org.folio.sidecar.support.TestTimers;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 37, slow is not down, with the real Keycloak behind a hop that holds its UMA answers until the test
 * releases them: a miss waits for a slow Keycloak; past KC_REQUEST_TIMEOUT (ended by the test, not waited for)
 * it is a 503 named a timeout, never "unreachable"; a stale grant serves without waiting for the deadline; a
 * Keycloak error is counted as an error. Each test logs in anew: a new session is a new decision (a miss).
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true, initArgs = {
  @ResourceArg(name = "sidecar.authz-cache.allow-ttl", value = "60s"),
  @ResourceArg(name = "sidecar.authz-cache.refresh-after", value = "50s"),
  @ResourceArg(name = "sidecar.authz-cache.refresh-jitter", value = "false"),
  // every failure's cause line, so that each test sees its own
  @ResourceArg(name = "kc.error-log-interval", value = "1ms")})
class SlowKeycloakTest {

  /** Time for the machine, however busy, to get a request to the hop: a bound on waiting, not a latency. */
  private static final Duration REACHES_THE_HOP = Duration.ofMinutes(2);

  private final TestPlatform platform = TestPlatform.get();

  @BeforeEach
  void freshDecisions() {
    SidecarCalls.forgetDecisions();
  }

  private String login() {
    return platform.tokens().login(platform.alpha(), platform.alpha().allowed()).getString("access_token");
  }

  private static CompletableFuture<Response> getLater(String token, String path) {
    return CompletableFuture.supplyAsync(() -> given().header("x-okapi-tenant", "alpha")
      .header("x-okapi-token", token).get(path));
  }

  private void awaitHeldUma(int held) {
    await().atMost(REACHES_THE_HOP).until(() -> platform.keycloakHop().heldUma() >= held);
  }

  @Test
  void aMissWaitsForASlowKeycloakInsteadOfFailing() {
    var token = login();
    platform.keycloakHop().holdUma();
    try {
      var answer = getLater(token, "/items/51");
      awaitHeldUma(1);
      assertThat(answer).isNotDone();

      platform.keycloakHop().releaseUma();

      assertThat(answer.join().statusCode()).isEqualTo(200);
    } finally {
      platform.keycloakHop().releaseUma();
    }
  }

  @Test
  void aMissPastTheDeadlineIsA503NamedATimeout() {
    var token = login();
    double timeouts = SidecarCalls.keycloakDecisions("timeout");
    platform.keycloakHop().holdUma();
    try (var logs = LogCapture.install()) {
      var answer = getLater(token, "/items/52");
      awaitHeldUma(1);

      TestTimers.expireAll();

      answer.join().then().statusCode(503)
        .body("errors[0].code", equalTo("service_error"))
        .body("errors[0].message", equalTo("Authorization service is unavailable"));
      assertThat(SidecarCalls.keycloakDecisions("timeout")).isEqualTo(timeouts + 1);
      assertThat(logs.lines()).anyMatch(line -> line.contains("Keycloak authorization timeout: Keycloak did not "
        + "answer within 15000 ms (KC_REQUEST_TIMEOUT)"));
      assertThat(logs.lines()).noneMatch(line -> line.contains("unreachable") || line.contains(token));
    } finally {
      platform.keycloakHop().releaseUma();
    }
  }

  @Test
  void aStaleGrantServesWhileKeycloakIsSlow() {
    var token = login();
    get("alpha", token, "/items/53").statusCode(200);
    TestClocks.advance(Duration.ofSeconds(70));
    platform.keycloakHop().holdUma();
    try {
      // the stale wait (500 ms) ends on its own; the held re-check never answers in this test
      get("alpha", token, "/items/53").statusCode(200);
      assertThat(platform.keycloakHop().heldUma()).as("Keycloak was asked").isEqualTo(1);
    } finally {
      platform.keycloakHop().releaseUma();
    }
  }

  @Test
  void aKeycloakErrorIsA503CountedAsAnError() {
    var token = login();
    double errors = SidecarCalls.keycloakDecisions("error");
    platform.keycloakHop().failUma();
    try {
      get("alpha", token, "/items/54").statusCode(503).body("errors[0].code", equalTo("service_error"));
      assertThat(SidecarCalls.keycloakDecisions("error")).isEqualTo(errors + 1);
    } finally {
      platform.keycloakHop().answerUma();
    }
  }
}
