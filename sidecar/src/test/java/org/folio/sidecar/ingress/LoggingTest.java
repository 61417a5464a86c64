package org.folio.sidecar.ingress;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import org.folio.sidecar.support.Waits;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.folio.sidecar.support.LogCapture;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.support.StalledConsole;
import org.folio.sidecar.testkit.TestPlatform;
import org.folio.sidecar.testkit.Tokens;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class LoggingTest {

  private final TestPlatform platform = TestPlatform.get();

  @Test
  void noTokenEverReachesTheLogAndEachRequestGetsOneAccessLine() {
    // Given tokens that take every path: allowed, denied, tampered, and sent two different ways at once
    var alpha = platform.alpha();
    var allowed = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
    var denied = platform.tokens().login(alpha, alpha.denied()).getString("access_token");
    var tampered = Tokens.withPayload(allowed, Tokens.claims(allowed).put("user_id", "x"));

    try (var capture = LogCapture.install()) {
      // When they go through a full request cycle each
      given().header("x-okapi-tenant", "alpha").header("Authorization", "Bearer " + allowed)
        .header("x-okapi-request-id", "424242").get("/items/1").then().statusCode(200);
      given().header("x-okapi-tenant", "alpha").header("x-okapi-token", denied).get("/items/1").then().statusCode(403);
      given().header("x-okapi-tenant", "alpha").header("x-okapi-token", tampered).get("/items/1").then()
        .statusCode(401);
      given().header("x-okapi-tenant", "alpha").header("x-okapi-token", denied)
        .header("Authorization", "Bearer " + allowed).get("/items/1").then().statusCode(400);

      // Then no line holds any part of a token, and the access log names each request once (written off the
      // event loop, so the last ones may trail the answers)
      await().atMost(Waits.STATE)
        .until(() -> capture.lines().stream().filter(line -> line.startsWith("transaction ")).count() == 4);
      var lines = capture.lines();
      for (var token : new String[]{allowed, denied, tampered}) {
        for (var part : token.split("\\.")) {
          assertThat(lines).noneMatch(line -> line.contains(part));
        }
      }
      assertThat(lines).filteredOn(line -> line.startsWith("transaction ")).hasSize(4);
      // SC_LOG_LEVEL is INFO: no TRACE line (TraceLevelTest has them)
      assertThat(lines).noneMatch(line -> line.startsWith("org.folio.sidecar.SidecarRouter Routing ["));
      assertThat(lines).anyMatch(line -> line.contains("[transaction] (access) GET /items/1 200 tenant=alpha user="
        + alpha.allowed().folioId() + " rid=424242")
        && line.matches(".* total_ms=\\d+\\.\\d{3} module_ms=\\d+\\.\\d{3}"));
      // a request refused before the module was asked has no module time
      assertThat(lines).anyMatch(line -> line.contains("[transaction] (access) GET /items/1 403 ")
        && line.matches(".* total_ms=\\d+\\.\\d{3} module_ms=-"));
    }
  }

  @Test
  void errorLinesSayWhereTheRequestStoppedHowLongItTookAndWhatCausedIt() {
    platform.resetModule();
    var alpha = platform.alpha();
    var denied = platform.tokens().login(alpha, alpha.denied()).getString("access_token");

    try (var capture = LogCapture.install()) {
      given().header("x-okapi-tenant", "alpha").header("x-okapi-token", denied)
        .header("x-okapi-request-id", "stage-1").get("/items/1").then().statusCode(403);
      given().header("x-okapi-tenant", "gamma").header("x-okapi-request-id", "stage-2").get("/items/1").then()
        .statusCode(400);
      given().header("x-okapi-tenant", "alpha").header("x-okapi-request-id", "stage-3").get("/down/1").then()
        .statusCode(502);

      // upstream master's fields (MODSIDECAR-199): type, message, root cause, stage, elapsed; the reason stays
      await().atMost(Waits.STATE).untilAsserted(() -> {
        assertThat(errorLine(capture, "stage-1"))
          .contains("type = ForbiddenException, message = Access Denied, cause = null, "
            + "stage = KeycloakAuthorizationFilter, elapsed = ")
          .containsPattern("elapsed = \\d+ms, status = 403, code = authorization_error");
        assertThat(errorLine(capture, "stage-2"))
          .contains("type = TenantNotEnabledException", "stage = TenantFilter", "status = 400")
          .containsPattern("elapsed = \\d+ms");
        assertThat(errorLine(capture, "stage-3"))
          .contains("type = BadGatewayException", "cause = ConnectException", "stage = RequestForwarding",
            "status = 502", "reason = connection refused")
          .containsPattern("elapsed = \\d+ms");
      });
      // the access line keeps the reason it had
      await().atMost(Waits.STATE).untilAsserted(() -> assertThat(capture.lines())
        .anyMatch(line -> line.startsWith("transaction ") && line.contains("GET /down/1 502")
          && line.contains("connection refused")));
    }
  }

  private static String errorLine(LogCapture capture, String requestId) {
    return capture.lines().stream()
      .filter(line -> line.contains("Sending error response for") && line.contains("requestId: " + requestId))
      .findFirst().orElse("");
  }

  @Test
  void aConsoleThatStopsReadingDoesNotDelayRequests() {
    platform.resetModule();
    // Given a console whose reader has stalled (a container runtime's pipe under load)
    var stalled = new StalledConsole();
    var transaction = java.util.logging.Logger.getLogger("transaction");
    transaction.addHandler(stalled);
    try {
      // When requests keep coming, Then they are answered as if nothing were wrong
      assertTimeoutPreemptively(Waits.STATE, () -> {
        for (int i = 0; i < 50; i++) {
          given().header("x-okapi-tenant", "alpha").get("/public/info").then().statusCode(200);
        }
      });
      // and once the console reads again, every line is there
      stalled.resume();
      await().atMost(Waits.STATE).until(() -> stalled.lines().size() >= 50);
    } finally {
      stalled.resume();
      transaction.removeHandler(stalled);
    }
  }
}
