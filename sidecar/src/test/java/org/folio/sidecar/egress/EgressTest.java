package org.folio.sidecar.egress;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import org.folio.sidecar.support.Waits;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.folio.sidecar.support.AccessLines;
import org.folio.sidecar.support.LogCapture;
import org.folio.sidecar.support.TestClocks;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.folio.sidecar.testkit.Tokens;
import org.folio.sidecar.token.ServiceTokens;
import org.jboss.logmanager.Level;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The module's calls to other modules through its sidecar: routing, overrides, the shared service token. */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class EgressTest {

  private static final List<String> ALPHA = List.of("alpha");

  private final TestPlatform platform = TestPlatform.get();

  @TestHTTPResource("/")
  URL sidecar;

  @Inject
  ServiceTokens serviceTokens;

  @BeforeEach
  void reset() {
    platform.resetModule();
  }

  /** Token requests to these tenants' realms (the master realm's token is refreshed on its own schedule). */
  private int tokenRequests(Collection<String> tenants) {
    return platform.keycloakHop().tokenRequests(tenants::contains);
  }

  @Test
  void sixtyTenantsTimesTwoHundredConcurrentCallsFetchSixtyTokens() {
    var tenants = platform.serviceTenants();
    var http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    int before = tokenRequests(tenants);
    var failures = new AtomicInteger();

    for (var tenant : tenants) {
      var request = HttpRequest.newBuilder(URI.create(sidecar + "users/42")).timeout(Duration.ofSeconds(20))
        .header("x-okapi-tenant", tenant).build();
      var calls = new ArrayList<CompletableFuture<HttpResponse<Void>>>();
      for (int i = 0; i < 200; i++) {
        calls.add(http.sendAsync(request, HttpResponse.BodyHandlers.discarding()));
      }
      calls.forEach(call -> {
        if (call.join().statusCode() != 200) {
          failures.incrementAndGet();
        }
      });
    }

    assertThat(failures).hasValue(0);
    assertThat(tokenRequests(tenants) - before).isEqualTo(tenants.size());
    var sent = platform.others().findAll(getRequestedFor(urlEqualTo("/users/42")).withHeader("x-okapi-tenant",
      WireMock.equalTo("svc07")));
    assertThat(sent).hasSize(200);
    var claims = Tokens.claims(sent.get(0).getHeader("x-system-token"));
    assertThat(claims.getString("azp")).isEqualTo("sidecar-module-access-client");
    assertThat(claims.getString("iss")).endsWith("/realms/svc07");
  }

  @Test
  void overrideSendsDbHeavyModuleToItsDeploymentAndFileEditsSwitchWithoutFailures() {
    // Given everything discovered on route A
    given().header("x-okapi-tenant", "alpha").get("/source-storage/records/1").then().statusCode(200)
      .body("from", equalTo("discovered"));

    // When the mounted overrides file moves mod-source-record-storage to its dedicated deployment, under load
    var failures = new AtomicInteger();
    var switched = new AtomicInteger();
    platform
      .writeRouteOverrides("{\"modules\":{\"mod-source-record-storage\":\"" + platform.dedicated().baseUrl() + "\"}}");
    long started = System.nanoTime();
    await().atMost(Waits.STATE).pollInterval(Duration.ofMillis(20)).until(() -> {
      var response = given().header("x-okapi-tenant", "alpha").get("/source-storage/records/1");
      if (response.statusCode() != 200) {
        failures.incrementAndGet();
        return false;
      }
      return "dedicated".equals(response.jsonPath().getString("from")) && switched.incrementAndGet() > 0;
    });

    // Then its interfaces go to B within 2 s, with no failed request, and everything else stays on A
    try {
      System.out.printf("override switch took %d ms%n", (System.nanoTime() - started) / 1_000_000);
      assertThat(failures).hasValue(0);
      given().header("x-okapi-tenant", "alpha").post("/source-storage/records").then().statusCode(200)
        .body("from", equalTo("dedicated"));
      given().header("x-okapi-tenant", "alpha").get("/users/1").then().statusCode(200).body("from",
        equalTo("discovered"));
    } finally {
      platform.writeRouteOverrides("{}");
    }
    await().atMost(Waits.STATE).untilAsserted(() -> given().header("x-okapi-tenant", "alpha")
      .get("/source-storage/records/1").then().body("from", equalTo("discovered")));
  }

  @Test
  void atDebugTheRouteChosenAndTheServiceTokenCallAreLoggedWithoutTheToken() {
    // a token dropped, as a target's 401 drops one: the next call asks Keycloak for a new one
    serviceTokens.evict("alpha");
    // the categories the runbook "Debug one sidecar's log" sets to DEBUG
    try (var capture = LogCapture.at(Level.DEBUG, "org.folio.sidecar.egress", "org.folio.sidecar.token")) {
      given().header("x-okapi-tenant", "alpha").get("/users/24").then().statusCode(200);

      var lines = capture.lines();
      // the bootstrap names the others' stub by WireMock's own base URL, on localhost
      var others = "http://localhost:" + URI.create(platform.others().baseUrl()).getPort();
      assertThat(lines).contains("org.folio.sidecar.egress.EgressHandler Egress route for tenant alpha: interface "
        + "users of mod-users at " + others + " (discovered)");
      assertThat(lines).anyMatch(line -> line.matches("org\\.folio\\.sidecar\\.token\\.KeycloakCallLog Keycloak "
        + "service token call for realm alpha: answered 200 after \\d+ ms"));
      var token = platform.others().findAll(getRequestedFor(urlEqualTo("/users/24"))).get(0)
        .getHeader("x-system-token");
      assertThat(lines).noneMatch(line -> line.contains(token.split("\\.")[1]));
    }
  }

  @Test
  void unknownRouteIs404WhenGatewayForwardingIsOff() {
    given().header("x-okapi-tenant", "alpha").get("/nobody/provides/this").then().statusCode(404)
      .body("errors[0].code", equalTo("route_not_found_error"));
  }

  @Test
  void withoutAUserTokenOrASystemUserTheCallGoesOnWithoutOneWhenErrorsAreIgnored() {
    // HANDLER_EGRESS_IGNORE_SYSTEM_USER_TOKEN_ERROR=true (TestPlatform); NoSystemUserTest has the 400 of false
    given().header("x-okapi-tenant", "alpha").get("/users/23").then().statusCode(200);

    platform.others().verify(1, getRequestedFor(urlEqualTo("/users/23"))
      .withHeader("x-okapi-token", WireMock.absent()).withHeader("x-system-token", WireMock.matching(".+")));
  }

  @Test
  void targetRefusingTheTokenGetsAFreshOneAndReplayableRequestsAreRetriedOnce() {
    platform.others().stubFor(WireMock.get(urlEqualTo("/users/401")).inScenario("refused")
      .whenScenarioStateIs(Scenario.STARTED).willReturn(aResponse().withStatus(401)).willSetStateTo("accepted"));
    platform.others().stubFor(WireMock.get(urlEqualTo("/users/401")).inScenario("refused")
      .whenScenarioStateIs("accepted").willReturn(aResponse().withStatus(200).withBody("{\"from\":\"discovered\"}")));
    given().header("x-okapi-tenant", "alpha").get("/users/0").then().statusCode(200);
    int before = tokenRequests(ALPHA);
    // only a token older than SIDECAR_REFUSED_TOKEN_MIN_AGE (30 s) can be the reason for a 401
    TestClocks.advance(Duration.ofSeconds(31));

    given().header("x-okapi-tenant", "alpha").get("/users/401").then().statusCode(200);

    assertThat(tokenRequests(ALPHA) - before).isEqualTo(1);
    var sent = platform.others().findAll(getRequestedFor(urlEqualTo("/users/401")));
    assertThat(sent).hasSize(2);
    assertThat(sent.get(1).getHeader("x-system-token")).isNotEqualTo(sent.get(0).getHeader("x-system-token"));

    platform.others().stubFor(WireMock.post(urlEqualTo("/users/7/notes")).willReturn(aResponse().withStatus(401)));
    TestClocks.advance(Duration.ofSeconds(31));
    given().header("x-okapi-tenant", "alpha").body("{\"note\":1}").post("/users/7/notes").then().statusCode(503)
      .header("Retry-After", "1").body("errors[0].code", equalTo("authorization_error"));
  }

  @Test
  void aTargetAnsweringEverything401CannotDriveKeycloak() {
    // issue 27: before, each of these 401s evicted the shared token (10 GETs cost 20 calls and 20 grants)
    for (var path : new String[]{"/users/always-401", "/users/always-401/notes"}) {
      platform.others().stubFor(WireMock.any(urlEqualTo(path)).willReturn(aResponse().withStatus(401)
        .withHeader("content-type", "text/plain").withBody("user token expired")));
    }
    // the first 401 may meet a token older than the bound (earlier tests moved the clock): it is replaced once
    given().header("x-okapi-tenant", "alpha").get("/users/always-401").then().statusCode(401);
    platform.others().resetRequests();
    int before = tokenRequests(ALPHA);

    for (int i = 0; i < 10; i++) {
      given().header("x-okapi-tenant", "alpha").get("/users/always-401").then().statusCode(401)
        .body(equalTo("user token expired"));
      given().header("x-okapi-tenant", "alpha").body("{}").post("/users/always-401/notes").then().statusCode(401)
        .body(equalTo("user token expired"));
    }

    assertThat(tokenRequests(ALPHA) - before).isZero();
    platform.others().verify(10, WireMock.anyRequestedFor(urlEqualTo("/users/always-401")));
    platform.others().verify(10, WireMock.anyRequestedFor(urlEqualTo("/users/always-401/notes")));
  }

  @Test
  void targetDownIs502FastAndKeycloakDownDoesNotStopEgressWithValidTokens() {
    try (var capture = LogCapture.install()) {
      given().header("x-okapi-tenant", "alpha").get("/down/1").then().statusCode(502);
      AccessLines.assertReason(capture, "GET /down/1 502", "connection refused");
    }

    given().header("x-okapi-tenant", "alpha").get("/users/2").then().statusCode(200);
    platform.keycloakHop().cut();
    try {
      given().header("x-okapi-tenant", "alpha").get("/users/3").then().statusCode(200);
    } finally {
      platform.keycloakHop().restore();
    }
  }

  @Test
  void aStoppedOrResettingTargetIs502InUpstreamsErrorShapeNot500() {
    // upstream v4.0.3 answers both 500 InternalServerErrorException; the fault is the target's, not the sidecar's
    platform.others().stubFor(WireMock.get("/users/reset")
      .willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
    for (var path : new String[]{"/down/2", "/users/reset"}) {
      given().header("x-okapi-tenant", "alpha").get(path).then().statusCode(502)
        .contentType("application/json")
        .body("total_records", equalTo(1))
        .body("errors[0].type", equalTo("BadGatewayException"))
        .body("errors[0].code", equalTo("service_error"))
        .body("errors[0].message", equalTo("Failed to proxy request"));
    }
  }

  @Test
  void tenMegabytesPassEgressByteIdentical() throws Exception {
    var body = new byte[10 * 1024 * 1024];
    new Random(11).nextBytes(body);

    given().header("x-okapi-tenant", "alpha").contentType("application/octet-stream").body(body)
      .post("/users/import").then().statusCode(200);

    var received = platform.others().findAll(postRequestedFor(urlPathMatching("/users/import"))).get(0).getBody();
    var digest = MessageDigest.getInstance("SHA-256");
    assertThat(HexFormat.of().formatHex(digest.digest(received)))
      .isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body)));
  }

  @Test
  void egressFromOutsideThePodIsRefusedByDefault() {
    var outside = io.vertx.core.net.SocketAddress.inetSocketAddress(40000, "10.1.2.3");
    var inside = io.vertx.core.net.SocketAddress.inetSocketAddress(40000, "127.0.0.1");
    var insideV6 = io.vertx.core.net.SocketAddress.inetSocketAddress(40000, "0:0:0:0:0:0:0:1");
    // Istio's inbound proxy connects from 127.0.0.6 on behalf of callers outside the pod
    var meshProxy = io.vertx.core.net.SocketAddress.inetSocketAddress(40000, "127.0.0.6");
    var peers = org.folio.sidecar.forward.Peers.of("127.0.0.1", "::1");

    assertThat(EgressGuard.allows(outside, true, peers)).isFalse();
    assertThat(EgressGuard.allows(meshProxy, true, peers)).isFalse();
    assertThat(EgressGuard.allows(inside, true, peers)).isTrue();
    assertThat(EgressGuard.allows(insideV6, true, peers)).isTrue();
    assertThat(EgressGuard.allows(outside, false, peers)).isTrue();
  }
}
