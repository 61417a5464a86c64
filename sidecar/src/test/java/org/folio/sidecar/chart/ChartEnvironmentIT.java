package org.folio.sidecar.chart;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.client.WireMock;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Random;
import org.folio.sidecar.support.PackagedSidecar;
import org.folio.sidecar.testkit.FolioRealms;
import org.folio.sidecar.testkit.FreePorts;
import org.folio.sidecar.testkit.TestModule;
import org.folio.sidecar.testkit.TestPlatform;
import org.folio.sidecar.testkit.Tokens;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packaged sidecar started with folio-helm-v2's sidecar environment verbatim (k8s/folio-helm-v2-sidecar.env):
 * only the chart's secrets and service URLs are pointed at the test kit (Keycloak, Kafka, the managers' stub), and
 * MODULE_URL/SIDECAR_URL are on localhost as the chart sets them. Keycloak is called as {@code localhost} while
 * its tokens say {@code 127.0.0.1}, as tokens carry the public address in a cluster.
 */
class ChartEnvironmentIT {

  private static final String CHART_SUFFIX = "-application";
  private static TestPlatform platform;
  private static PackagedSidecar sidecar;

  @BeforeAll
  static void startWithTheChartsEnvironment() throws Exception {
    platform = TestPlatform.get();
    platform.resetModule();
    new FolioRealms(platform.keycloakAdmin()).addLoginClient(platform.alpha(), CHART_SUFFIX);
    var managers = platform.managers();
    managers.stubFor(WireMock.get(urlPathEqualTo("/modules/" + TestModule.NAME + "-" + TestModule.VERSION))
      .willReturn(WireMock.okJson(TestModule.bootstrap(platform.others().baseUrl(),
        "http://127.0.0.1:" + FreePorts.next(), false).encode())));

    var env = PackagedSidecar.chartEnvironment();
    assertThat(env.get("KC_LOGIN_CLIENT_SUFFIX")).isEqualTo(CHART_SUFFIX);
    int port = FreePorts.next();
    var config = platform.sidecarConfig();
    // the chart's template values for this module and its ports
    env.put("QUARKUS_HTTP_PORT", String.valueOf(port));
    env.put("MODULE_NAME", TestModule.NAME);
    env.put("MODULE_VERSION", TestModule.VERSION);
    env.put("MODULE_URL", platform.module().baseUrl().replace("127.0.0.1", "localhost"));
    env.put("SIDECAR_URL", "http://localhost:" + port);
    // the chart's in-cluster service addresses
    env.put("AM_CLIENT_URL", managers.baseUrl());
    env.put("TE_CLIENT_URL", managers.baseUrl());
    env.put("TM_CLIENT_URL", managers.baseUrl());
    // the chart's secrets
    env.put("KC_URL", config.get("kc.url").replace("127.0.0.1", "localhost"));
    env.put("KAFKA_HOST", config.get("events.kafka-host"));
    env.put("KAFKA_PORT", config.get("events.kafka-port"));
    env.put("MOD_USERS_KEYCLOAK_URL", managers.baseUrl());
    env.put("SIDECAR_FORWARD_UNKNOWN_REQUESTS_DESTINATION", System.getProperty("testplatform.gateway"));
    env.put("SECRET_STORE_TYPE", "EPHEMERAL");
    config.forEach((property, value) -> {
      if (property.startsWith("secret-store.ephemeral.content.")) {
        env.put(property.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT), value);
      }
    });
    sidecar = PackagedSidecar.start(env, port);
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
      .until(() -> send(get("/admin/health").build()).statusCode() == 200);
  }

  @AfterAll
  static void stop() throws Exception {
    if (sidecar != null) {
      sidecar.close();
    }
  }

  private static HttpResponse<String> send(HttpRequest request) throws Exception {
    return sidecar.http().send(request, HttpResponse.BodyHandlers.ofString());
  }

  private static HttpRequest.Builder get(String path) {
    return HttpRequest.newBuilder(URI.create(sidecar.url(path))).timeout(Duration.ofSeconds(20));
  }

  private static String token(boolean allowed) {
    var alpha = platform.alpha();
    return platform.tokens().login(alpha, allowed ? alpha.allowed() : alpha.denied()).getString("access_token");
  }

  @Test
  void ingressIsAllowedAndDeniedAsThePermissionsSay() throws Exception {
    var allowed = send(get("/items/71").header("x-okapi-tenant", "alpha").header("x-okapi-token", token(true))
      .build());
    var denied = send(get("/items/71").header("x-okapi-tenant", "alpha").header("x-okapi-token", token(false))
      .build());

    assertThat(allowed.statusCode()).as(allowed.body()).isEqualTo(200);
    assertThat(denied.statusCode()).isEqualTo(403);
    assertThat(new JsonObject(denied.body()).getJsonArray("errors").getJsonObject(0).getString("message"))
      .isEqualTo("Access Denied");
    platform.module().verify(1, getRequestedFor(urlEqualTo("/items/71")));
  }

  @Test
  void egressReachesADependencyAndUnknownPathsTheGateway() throws Exception {
    var dependency = send(get("/users/72").header("x-okapi-tenant", "alpha").header("x-okapi-token", token(true))
      .build());
    var gateway = send(get("/nowhere-known/73").header("x-okapi-tenant", "alpha").build());

    assertThat(dependency.statusCode()).as(dependency.body()).isEqualTo(200);
    assertThat(dependency.body()).contains("discovered");
    assertThat(gateway.statusCode()).as(gateway.body()).isEqualTo(200);
    platform.others().verify(1, getRequestedFor(urlEqualTo("/users/72")).withHeader("x-system-token",
      WireMock.matching(".+")));
    platform.dedicated().verify(1, getRequestedFor(urlEqualTo("/nowhere-known/73")));
  }

  @Test
  void aLogoutTakesEffect() throws Exception {
    var alpha = platform.alpha();
    var login = platform.tokens().login(alpha, alpha.allowed());
    var token = login.getString("access_token");
    var request = get("/items/74").header("x-okapi-tenant", "alpha").header("x-okapi-token", token).build();
    assertThat(send(request).statusCode()).isEqualTo(200);

    platform.tokens().logout(alpha, login);
    // the consumer joins its topics after start-up; the event is sent again until it has been seen
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).until(() -> {
      try (var events = platform.events()) {
        events.logout("alpha", alpha.allowed().folioId(), Tokens.claims(token).getString("sid"));
      }
      return send(request).statusCode() == 401;
    });
  }

  @Test
  void bodiesOverTheChartsLimitAre413AndBodiesUnderItStream() throws Exception {
    var limit = 10240 * 1024;
    var token = token(true);
    var under = new byte[limit - 1024];
    new Random(3).nextBytes(under);
    var over = new byte[limit + 1];

    // as curl sends large bodies: the answer to the headers comes before the body is sent
    var refused = send(HttpRequest.newBuilder(URI.create(sidecar.url("/uploads"))).timeout(Duration.ofSeconds(30))
      .expectContinue(true).header("x-okapi-tenant", "alpha").header("x-okapi-token", token)
      .POST(HttpRequest.BodyPublishers.ofByteArray(over)).build());
    // the grant first, with a small body: the chart leaves Keycloak's 2-s call limit, which a busy test machine exceeds
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).until(() -> send(HttpRequest
      .newBuilder(URI.create(sidecar.url("/uploads"))).header("x-okapi-tenant", "alpha").header("x-okapi-token", token)
      .POST(HttpRequest.BodyPublishers.ofString("{}")).build()).statusCode() == 200);
    var passed = send(HttpRequest.newBuilder(URI.create(sidecar.url("/uploads"))).timeout(Duration.ofSeconds(30))
      .header("x-okapi-tenant", "alpha").header("x-okapi-token", token)
      .POST(HttpRequest.BodyPublishers.ofByteArray(under)).build());

    assertThat(refused.statusCode()).isEqualTo(413);
    var error = new JsonObject(refused.body());
    assertThat(error.getInteger("total_records")).isEqualTo(1);
    assertThat(error.getJsonArray("errors").getJsonObject(0).getString("type")).isEqualTo("PayloadTooLargeException");
    assertThat(passed.statusCode()).as(passed.body()).isEqualTo(200);
    var received = platform.module().findAll(postRequestedFor(urlEqualTo("/uploads")));
    assertThat(received).filteredOn(request -> request.getBody().length > 2).hasSize(1)
      .allSatisfy(request -> assertThat(request.getBody()).isEqualTo(under));
  }

  @Test
  void startUpSaysTheBoundsAndWarnsOfNothing() throws Exception {
    var output = sidecar.output();
    assertThat(output).contains("Cache bounds for a heap of 64 MiB").doesNotContain("Upstream variables without");
  }
}
