package org.folio.sidecar.admin;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.folio.sidecar.support.SidecarCalls.admin;
import static org.folio.sidecar.support.SidecarCalls.get;
import static org.folio.sidecar.support.SidecarCalls.managementBase;
import static org.folio.sidecar.support.SidecarCalls.umaCalls;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.containsString;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.regex.Pattern;
import org.folio.sidecar.support.LogCapture;
import org.folio.sidecar.support.SidecarCalls;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.folio.sidecar.testkit.Tokens;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The admin API as an operator uses it: on the management port only, refused without the credential (401) or with
 * a wrong one (403), every call in one audit line and counted; and what each endpoint does.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class AdminApiTest {

  private static final String CREDENTIAL_ID = "caller=secret:" + TestPlatform.ADMIN_SECRET_KEY;

  private final TestPlatform platform = TestPlatform.get();

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "GET,  /admin,                   index",
    "GET,  /admin/server_info,       server_info",
    "GET,  /admin/cache,             cache_stats",
    "GET,  /admin/cache/entries?tenant=alpha, cache_lookup",
    "POST, /admin/cache/flush?tenant=alpha&user=nobody, cache_flush",
    "GET,  /admin/config_dump,       config_dump",
    "GET,  /admin/routes,            routes",
    "GET,  /admin/tenants,           tenants",
    "GET,  /admin/logging,           logging",
    "POST, /admin/logging?category=org.folio.sidecar.admin&level=INFO, logging_change",
    "POST, /admin/healthcheck/ok,    healthcheck_ok",
  })
  void everyEndpointIsAuthenticatedAuditedAndOnTheManagementPortOnly(String method, String path, String endpoint) {
    try (var log = LogCapture.install()) {
      // no credential: 401; a wrong one: 403; both audited with the endpoint's name and no caller
      given().baseUri(managementBase()).port(-1).request(method, path).then().statusCode(401);
      given().baseUri(managementBase()).port(-1).header("authorization", "Bearer wrong-credential-0123456789")
        .request(method, path).then().statusCode(403);
      // the right one
      admin().request(method, path).then().statusCode(200);
      // the module's port does not know the path
      given().request(method, path).then().statusCode(404);

      var lines = audit(log);
      assertThat(lines).hasSize(3);
      assertThat(lines.get(0)).contains("caller=-", "endpoint=" + endpoint, "status=401", "outcome=unauthenticated",
        "action=\"" + method + " ");
      assertThat(lines.get(1)).contains("caller=-", "status=403", "outcome=forbidden", "wrong admin credential");
      assertThat(lines.get(2)).contains(CREDENTIAL_ID, "endpoint=" + endpoint, "status=200", "outcome=ok",
        "peer=127.0.0.1:");
      assertThat(String.join("\n", lines)).doesNotContain(TestPlatform.ADMIN_TOKEN, "wrong-credential");
    }
    SidecarCalls.metrics().body(containsString(
      "sidecar_admin_requests_total{endpoint=\"" + endpoint + "\",outcome=\"ok\"}"));
  }

  @Test
  void changesArePostOnlyAsEnvoysAdmin() {
    admin().get("/admin/cache/flush?all=true").then().statusCode(405).header("allow", "POST");
    admin().get("/admin/healthcheck/fail").then().statusCode(405);
    admin().delete("/admin/logging").then().statusCode(405).header("allow", "GET, POST");
    admin().get("/admin/no-such-endpoint").then().statusCode(404);
    admin().post("/admin/cache/flush").then().statusCode(400);
    admin().post("/admin/cache/flush?tenant=alpha&user=a&session=b").then().statusCode(400);
    admin().post("/admin/cache/flush?tenant=Not%20A%20Tenant").then().statusCode(400);
  }

  @Test
  void aUsersGrantsAreLookedUpThenFlushedCountedAndAskedAgain() {
    // Given a user whose grants are cached in two permissions
    var alpha = platform.alpha();
    var token = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
    var user = Tokens.claims(token).getString("user_id");
    get("alpha", token, "/items/1").statusCode(200);
    get("alpha", token, "/items").statusCode(200);

    // the look-up shows them (and the user's others in this test run): permission, decision, age, next re-check;
    // never a token. Decisions are the user's, not a session's (issue 45): a session look-up is refused
    var sid = Tokens.claims(token).getString("sid");
    admin().queryParam("tenant", "alpha").queryParam("session", sid).get("/admin/cache/entries")
      .then().statusCode(400);
    int total = admin().queryParam("tenant", "alpha").queryParam("user", user).get("/admin/cache/entries")
      .then().statusCode(200).body("entries.decision", hasItem("permit"))
      .body("entries.permission", hasItem("/items/{id}#GET"))
      .body("entries[0].recheckInSeconds", greaterThanOrEqualTo(0f))
      .body(not(containsString(token.substring(token.length() - 20))))
      .extract().path("total");
    assertThat(total).isGreaterThanOrEqualTo(2);
    double explicitBefore = explicitEvictions();

    // When an operator flushes the user
    admin().queryParam("tenant", "alpha").queryParam("user", user).post("/admin/cache/flush")
      .then().statusCode(200).body("scope", equalTo("user")).body("invalidated", equalTo(total));

    // Then the entries are gone, counted as explicit evictions, and the next request asks Keycloak again
    admin().queryParam("tenant", "alpha").queryParam("user", user).get("/admin/cache/entries")
      .then().body("total", equalTo(0));
    assertThat(explicitEvictions() - explicitBefore).isEqualTo((double) total);
    int before = umaCalls();
    get("alpha", token, "/items/1").statusCode(200);
    assertThat(umaCalls() - before).isEqualTo(1);
    admin().get("/admin/cache").then().statusCode(200).body("mode", equalTo("optimized"))
      .body("revocationBound", containsString("PT10M"));
  }

  @Test
  void configDumpNamesSourcesAndRedactsSecrets() {
    var dump = admin().get("/admin/config_dump").then().statusCode(200)
      .body("properties.'sidecar.authz-cache.allow-ttl'.value", equalTo("10m"))
      .body("properties.'secret-store.type'.source", not(equalTo(null)))
      .extract().asString();
    assertThat(dump).doesNotContain(TestPlatform.ADMIN_TOKEN, "test-admin-token");
    assertThat(ConfigDump.shown("secret-store.vault.token", "s.abc")).isEqualTo(ConfigDump.REDACTED);
    assertThat(ConfigDump.shown("KAFKA_SASL_JAAS_CONFIG", "x password=\"p\"")).isEqualTo(ConfigDump.REDACTED);
    assertThat(ConfigDump.shown("quarkus.http.ssl.certificate.key-store-password", "p")).isEqualTo(ConfigDump.REDACTED);
    assertThat(ConfigDump.shown("kc.url", "https://user:pw@keycloak:8443"))
      .isEqualTo("https://<redacted>@keycloak:8443");
    assertThat(ConfigDump.shown("token.refused-token-min-age", "30s")).isEqualTo("30s");
  }

  @Test
  void logLevelChangesAtRuntimeForTheSidecarsCategoriesOnly() {
    try {
      admin().post("/admin/logging?category=org.folio.sidecar.authz&level=debug").then().statusCode(200)
        .body("level", equalTo("DEBUG"));
      admin().get("/admin/logging").then().body("levels.'org.folio.sidecar.authz'", equalTo("DEBUG"));
      assertThat(java.util.logging.Logger.getLogger("org.folio.sidecar.authz").isLoggable(
        org.jboss.logmanager.Level.DEBUG)).isTrue();
      admin().post("/admin/logging?category=com.example.unknown.category&level=DEBUG").then().statusCode(400);
      admin().post("/admin/logging?category=org.folio.sidecar&level=LOUD").then().statusCode(400);
    } finally {
      admin().post("/admin/logging?category=org.folio.sidecar.authz&level=INFO").then().statusCode(200);
    }
  }

  @Test
  void drainFailsReadinessWithoutStoppingAndComesBack() {
    // a grant cached first (waiting out a busy machine's slow Keycloak), so the request below needs no Keycloak
    var token = platform.tokens().login(platform.alpha(), platform.alpha().allowed()).getString("access_token");
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
      .untilAsserted(() -> get("alpha", token, "/items/1").statusCode(200));
    try (var log = LogCapture.install()) {
      // refused without the credential or with a wrong one, unknown on the module's port
      given().baseUri(managementBase()).port(-1).post("/admin/healthcheck/fail").then().statusCode(401);
      given().baseUri(managementBase()).port(-1).header("authorization", "Bearer wrong-credential-0123456789")
        .post("/admin/healthcheck/fail").then().statusCode(403);
      given().post("/admin/healthcheck/fail").then().statusCode(404);

      admin().post("/admin/healthcheck/fail").then().statusCode(200).body("readiness", equalTo("DOWN"));
      assertThat(audit(log)).hasSize(3).last().asString().contains(CREDENTIAL_ID, "endpoint=healthcheck_fail",
        "status=200");
      given().get("/admin/health/ready").then().statusCode(503);
      // liveness, metrics and the module's traffic are untouched
      given().get("/admin/health/live").then().statusCode(200);
      SidecarCalls.metrics().body(containsString("sidecar_readiness_failed_by_operator 1.0"));
      get("alpha", token, "/items/1").statusCode(200);
      admin().get("/admin/server_info").then().body("state", equalTo("failed_by_operator"));
    } finally {
      admin().post("/admin/healthcheck/ok").then().statusCode(200);
    }
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(15))
      .untilAsserted(() -> given().get("/admin/health/ready").then().statusCode(200));
  }

  @Test
  void serverInfoAndBuildInfoNameTheBuild() {
    var version = admin().get("/admin/server_info").then().statusCode(200).body("state", equalTo("live"))
      .body("adminCredential", equalTo("secret:" + TestPlatform.ADMIN_SECRET_KEY))
      .extract().<String>path("version");
    SidecarCalls.metrics().body(containsString("sidecar_build_info{"), containsString("version=\"" + version + "\""));
    admin().get("/admin/tenants").then().body("tenants", hasItem("alpha"));
    admin().get("/admin/routes").then().body("ingress.path", hasItem("/items/{id}"));
  }

  private static java.util.List<String> audit(LogCapture log) {
    return log.lines().stream().filter(line -> line.contains("admin call: ")).toList();
  }

  private static double explicitEvictions() {
    var metrics = SidecarCalls.metrics().extract().asString();
    var matcher = Pattern
      .compile("cache_evictions_count\\{cache=\"sidecar.authz.decisions\",cause=\"EXPLICIT\"} (\\S+)")
      .matcher(metrics);
    return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0;
  }
}
