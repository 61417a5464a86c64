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
import static org.awaitility.Awaitility.await;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.folio.sidecar.forward.AccessLogWriter;
import org.folio.sidecar.support.LogCapture;
import org.folio.sidecar.support.SidecarCalls;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.folio.sidecar.testkit.Tokens;
import org.jboss.logging.Logger;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The admin API as an operator uses it: on the management port only, refused without the credential (401) or with
 * a wrong one (403), every call in one audit line and counted; and what each endpoint does.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class AdminApiTest {

  private static final String CREDENTIAL_ID = "caller=secret:" + TestPlatform.ADMIN_SECRET_KEY;
  private static final String MARKER = "audit capture from here: ";
  // the guesser's calls come from another loopback address than the operator's, as from another pod
  private static final String GUESSER = "127.0.0.2";
  private static final int GUESSES = 400;
  private static final int FAILURES_BEFORE_BACKOFF = 5;
  private static final int REFUSED_LINES = 20;

  @Inject
  AccessLogWriter writer;

  @Inject
  AdminAudit audit;

  @Inject
  Vertx vertx;

  private final TestPlatform platform = TestPlatform.get();

  /** Each test's refused calls are written: none of the interval's refused lines are used up by an earlier test. */
  @BeforeEach
  void wholeAuditInterval() {
    audit.closeInterval();
  }

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
    try (var log = captureAudit()) {
      // no credential: 401; a wrong one: 403; both audited with the endpoint's name and no caller
      given().baseUri(managementBase()).port(-1).request(method, path).then().statusCode(401);
      given().baseUri(managementBase()).port(-1).header("authorization", "Bearer wrong-credential-0123456789")
        .request(method, path).then().statusCode(403);
      // the right one
      admin().request(method, path).then().statusCode(200);
      // the module's port does not know the path
      given().request(method, path).then().statusCode(404);

      var lines = audit(log, 3);
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

  /**
   * Issue 43 row 8: 2,000 wrong admin secrets in 1.2 s were 2,000 403s and 2,000 WARN lines written on the event
   * loop. Now the guesser's address waits after its budget (429, its credential unchecked), at most
   * SIDECAR_ADMIN_AUDIT_REFUSED_LINES refused lines are written per interval and the rest counted and summed up, every
   * line is written by the access log's thread, and the operator on another address is served throughout.
   */
  @Test
  void aFloodOfWrongSecretsIsSlowedDownAndItsAuditLinesBoundedAndOffTheEventLoop() throws Exception {
    var threads = new java.util.concurrent.CopyOnWriteArrayList<String>();
    var auditThreads = new Handler() {
      @Override
      public void publish(LogRecord record) {
        if (record instanceof ExtLogRecord ext && AdminAudit.class.getName().equals(record.getLoggerName())) {
          threads.add(ext.getThreadName());
        }
      }

      @Override
      public void flush() {
      }

      @Override
      public void close() {
      }
    };
    var auditLogger = java.util.logging.Logger.getLogger(AdminAudit.class.getName());
    auditLogger.addHandler(auditThreads);
    var management = URI.create(managementBase());
    var client = vertx.createHttpClient(new HttpClientOptions().setLocalAddress(GUESSER),
      new PoolOptions().setHttp1MaxSize(8));
    double suppressedBefore = metric("sidecar_admin_audit_suppressed_total");
    try (var log = captureAudit()) {
      long start = System.nanoTime();
      var answers = new ArrayList<Future<Integer>>();
      for (int i = 0; i < GUESSES; i++) {
        var guess = "Bearer wrong-guess-" + i;
        answers.add(client.request(HttpMethod.GET, management.getPort(), "127.0.0.1", "/admin/server_info")
          .compose(request -> request.putHeader("authorization", guess).send())
          .compose(response -> response.body().map(body -> response.statusCode())));
      }
      // the operator, from its own address, meanwhile
      admin().get("/admin/server_info").then().statusCode(200);
      var statuses = Future.all(answers).toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS)
        .<Integer>list();
      long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
      admin().get("/admin/server_info").then().statusCode(200);

      // slowed down: past its budget each guess waits twice as long as the last (1 s, 2 s, 4 s, ...), so however
      // slow this machine, a few more were checked at most; the rest 429, unchecked
      var counts = statuses.stream().collect(Collectors.groupingBy(status -> status, Collectors.counting()));
      System.out.println(GUESSES + " wrong admin secrets in " + seconds + " s: " + counts);
      assertThat(counts.keySet()).containsOnly(403, 429);
      // (guesses already being checked when the budget ran out are answered 403 too: at most the client's 8)
      assertThat(counts.get(403)).isBetween((long) FAILURES_BEFORE_BACKOFF, FAILURES_BEFORE_BACKOFF + 8 + 10L);
      given().baseUri(managementBase()).port(-1).header("authorization", "Bearer " + TestPlatform.ADMIN_TOKEN)
        .get("/admin/server_info").then().statusCode(200);

      // the lines: at most REFUSED_LINES an interval (10 s) were written, the rest counted and summed up once the
      // interval ends (ended here at once)
      audit.closeInterval();
      double suppressed = metric("sidecar_admin_audit_suppressed_total") - suppressedBefore;
      var summed = await().atMost(Duration.ofSeconds(30)).until(() -> summedUp(log), sum -> sum >= suppressed);
      var written = audit(log, 1).stream().filter(line -> line.contains("peer=" + GUESSER + ":")).count();
      System.out.println("audit lines of the guesser written: " + written + ", counted and not written: "
        + suppressed);
      assertThat(written).isLessThanOrEqualTo(REFUSED_LINES * (seconds / 10 + 2));
      assertThat(written + suppressed).isEqualTo((double) GUESSES);
      // every line not written is said in a summary (an earlier test's refusals may add to it)
      assertThat(summed).isGreaterThanOrEqualTo((long) suppressed);
      assertThat(threads).isNotEmpty().noneMatch(thread -> thread.contains("eventloop"));
    } finally {
      auditLogger.removeHandler(auditThreads);
      client.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
    SidecarCalls.metrics().body(containsString(
      "sidecar_admin_requests_total{endpoint=\"server_info\",outcome=\"throttled\"}"));
  }

  /** The refused calls the audit's summary lines say it did not write. */
  private static long summedUp(LogCapture log) {
    var summary = Pattern.compile("refused for their credential: (\\d+) more");
    return afterMarker(log).stream().map(summary::matcher).filter(Matcher::find)
      .mapToLong(matcher -> Long.parseLong(matcher.group(1))).sum();
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
    try (var log = captureAudit()) {
      // refused without the credential or with a wrong one, unknown on the module's port
      given().baseUri(managementBase()).port(-1).post("/admin/healthcheck/fail").then().statusCode(401);
      given().baseUri(managementBase()).port(-1).header("authorization", "Bearer wrong-credential-0123456789")
        .post("/admin/healthcheck/fail").then().statusCode(403);
      given().post("/admin/healthcheck/fail").then().statusCode(404);

      admin().post("/admin/healthcheck/fail").then().statusCode(200).body("readiness", equalTo("DOWN"));
      assertThat(audit(log, 3)).hasSize(3).last().asString().contains(CREDENTIAL_ID, "endpoint=healthcheck_fail",
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

  /**
   * Captures the log from a marker on: audit lines are written by the access log's thread, so lines of an earlier
   * test's calls may still be queued; the marker, queued after them, is written after them.
   */
  private LogCapture captureAudit() {
    var log = LogCapture.install();
    var marker = MARKER + UUID.randomUUID();
    writer.warn(Logger.getLogger(AdminApiTest.class), marker, null, null);
    await().atMost(Duration.ofSeconds(30)).until(() -> log.lines().stream().anyMatch(line -> line.contains(marker)));
    return log;
  }

  /** The audit lines after the marker, once there are at least {@code expected} of them. */
  private static List<String> audit(LogCapture log, int expected) {
    return await().atMost(Duration.ofSeconds(30)).until(() -> auditAfterMarker(log), lines -> lines.size() >= expected);
  }

  private static List<String> auditAfterMarker(LogCapture log) {
    return afterMarker(log).stream().filter(line -> line.contains("admin call: ")).toList();
  }

  private static List<String> afterMarker(LogCapture log) {
    var lines = log.lines();
    int marker = 0;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(MARKER)) {
        marker = i;
      }
    }
    return lines.subList(marker, lines.size());
  }

  private static double metric(String name) {
    var matcher = Pattern.compile("(?m)^" + Pattern.quote(name) + " (\\S+)")
      .matcher(SidecarCalls.metrics().extract().asString());
    return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0;
  }

  private static double explicitEvictions() {
    var metrics = SidecarCalls.metrics().extract().asString();
    var matcher = Pattern
      .compile("cache_evictions_count\\{cache=\"sidecar.authz.decisions\",cause=\"EXPLICIT\"} (\\S+)")
      .matcher(metrics);
    return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0;
  }
}
