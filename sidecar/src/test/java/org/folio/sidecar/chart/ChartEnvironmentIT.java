package org.folio.sidecar.chart;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.folio.sidecar.support.PackagedSidecar;
import org.folio.sidecar.testkit.FolioRealms;
import org.folio.sidecar.testkit.FreePorts;
import org.folio.sidecar.testkit.TestModule;
import org.folio.sidecar.testkit.TestPlatform;
import org.folio.sidecar.testkit.TestTenant;
import org.folio.sidecar.testkit.Tokens;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packaged sidecar started with folio-helm-v2's sidecar environment verbatim (k8s/folio-helm-v2-sidecar.env)
 * and the variables of its open PR #239 over it (k8s/folio-helm-v2-pr239-sidecar.env: tenant-scoped routing, the
 * secret-store prefix from a secret, and mod-users-keycloak reached at its sidecar's port): only the chart's
 * secrets and service URLs are pointed at the test kit (Keycloak, Kafka, the managers' stub), and
 * MODULE_URL/SIDECAR_URL are on localhost as the chart sets them. Keycloak is called as {@code localhost} while
 * its tokens say {@code 127.0.0.1}, as tokens carry the public address in a cluster. A second sidecar, started
 * the same way, fronts a mod-users-keycloak stub: the first one's desired-permission and cross-tenant user
 * look-ups pass through it with the tenant's service token, which it verifies and has Keycloak decide like any
 * caller's (the service account's role System is granted every endpoint).
 */
class ChartEnvironmentIT {

  private static final String CHART_SUFFIX = "-application";
  /** PR #239 takes SECURE_STORE_ENV from a secret: here another prefix than ENV's, so that both are seen used. */
  private static final String SECURE_STORE_ENV = "pr239";
  private static final String USERS_KEYCLOAK_ID = "mod-users-keycloak-26.0.0";
  private static final String PERMISSIONS_PATH = "/users-keycloak/users/{id}/permissions";
  private static final String USER_PATH = "/users-keycloak/users/{id}";
  private static TestPlatform platform;
  private static PackagedSidecar sidecar;
  private static PackagedSidecar usersKeycloakSidecar;
  private static WireMockServer usersKeycloak;

  @BeforeAll
  static void startWithTheChartsEnvironment() throws Exception {
    platform = TestPlatform.get();
    platform.resetModule();
    platform.impersonationInBeta();
    var realms = new FolioRealms(platform.keycloakAdmin());
    for (var tenant : new TestTenant[]{platform.alpha(), platform.beta()}) {
      realms.addLoginClient(tenant, CHART_SUFFIX);
      // mgr-tenant-entitlements' resources for mod-users-keycloak's endpoints, on entitlement
      realms.addResource(tenant.name(), tenant.name() + CHART_SUFFIX, PERMISSIONS_PATH, "GET");
      realms.addResource(tenant.name(), tenant.name() + CHART_SUFFIX, USER_PATH, "GET");
    }
    usersKeycloak = new WireMockServer(WireMockConfiguration.options().dynamicPort().bindAddress("127.0.0.1"));
    usersKeycloak.start();
    usersKeycloak.stubFor(WireMock.get(urlEqualTo("/admin/health")).willReturn(WireMock.ok()));
    stubTenantScopedManagers();

    var env = PackagedSidecar.chartEnvironmentWithPr239();
    assertThat(env.get("KC_LOGIN_CLIENT_SUFFIX")).isEqualTo(CHART_SUFFIX);
    assertThat(env).containsEntry("SIDECAR_TENANT_SCOPED_ROUTING_ENABLED", "true")
      .containsEntry("MOD_USERS_KEYCLOAK_URL", "http://mod-users-keycloak:8082").containsKey("SECURE_STORE_ENV");
    int port = FreePorts.next();
    int usersKeycloakPort = FreePorts.next();
    var usersKeycloakEnv = new HashMap<>(env);
    pointAtTheTestKit(env, port, TestModule.NAME, TestModule.VERSION,
      platform.module().baseUrl().replace("127.0.0.1", "localhost"), usersKeycloakPort);
    pointAtTheTestKit(usersKeycloakEnv, usersKeycloakPort, "mod-users-keycloak", "26.0.0",
      usersKeycloak.baseUrl().replace("127.0.0.1", "localhost"), usersKeycloakPort);
    usersKeycloakSidecar = PackagedSidecar.start(usersKeycloakEnv, usersKeycloakPort);
    sidecar = PackagedSidecar.start(env, port);
    for (var started : new PackagedSidecar[]{sidecar, usersKeycloakSidecar}) {
      await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
        .until(() -> started.http().send(HttpRequest.newBuilder(URI.create(started.url("/admin/health"))).build(),
          HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
    }
  }

  /** The chart's template values for a module and its ports, and its secrets and services at the test kit. */
  private static void pointAtTheTestKit(Map<String, String> env, int port, String moduleName, String moduleVersion,
    String moduleUrl, int usersKeycloakPort) {
    var managers = platform.managers();
    var config = platform.sidecarConfig();
    env.put("QUARKUS_HTTP_PORT", String.valueOf(port));
    env.put("MODULE_NAME", moduleName);
    env.put("MODULE_VERSION", moduleVersion);
    env.put("MODULE_URL", moduleUrl);
    env.put("SIDECAR_URL", "http://localhost:" + port);
    // the chart's in-cluster service addresses
    env.put("AM_CLIENT_URL", managers.baseUrl());
    env.put("TE_CLIENT_URL", managers.baseUrl());
    env.put("TM_CLIENT_URL", managers.baseUrl());
    // PR #239: http://mod-users-keycloak:8082, the port of mod-users-keycloak's sidecar
    env.put("MOD_USERS_KEYCLOAK_URL", env.get("MOD_USERS_KEYCLOAK_URL")
      .replace("mod-users-keycloak:8082", "localhost:" + usersKeycloakPort));
    // the chart's secrets
    env.put("KC_URL", config.get("kc.url").replace("127.0.0.1", "localhost"));
    env.put("KAFKA_HOST", config.get("events.kafka-host"));
    env.put("KAFKA_PORT", config.get("events.kafka-port"));
    env.put("SIDECAR_FORWARD_UNKNOWN_REQUESTS_DESTINATION", System.getProperty("testplatform.gateway"));
    env.put("SECRET_STORE_TYPE", "EPHEMERAL");
    env.put("SECURE_STORE_ENV", SECURE_STORE_ENV);
    var secrets = new HashMap<String, String>();
    config.forEach((property, value) -> {
      if (property.startsWith("secret-store.ephemeral.content.folio_")) {
        secrets.put(property.substring("secret-store.ephemeral.content.folio_".length()), value);
      }
    });
    // introspection with the chart's login client, token exchange in beta
    secrets.put("alpha_alpha" + CHART_SUFFIX, TestTenant.LOGIN_SECRET);
    secrets.put("beta_impersonation-client", TestPlatform.IMPERSONATION_SECRET);
    secrets.forEach((key, value) -> env.put(("SECRET_STORE_EPHEMERAL_CONTENT_" + SECURE_STORE_ENV + "_" + key)
      .replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT), value));
  }

  /**
   * mgr-applications and mgr-tenant-entitlements as they answer with tenant-scoped routing: each module's own
   * routes from {@code GET /modules/<id>/bootstrap}, its dependencies from {@code POST /modules/<id>/bootstrap}
   * for the applications the tenant is entitled to (alpha and beta: one).
   */
  private static void stubTenantScopedManagers() {
    var managers = platform.managers();
    var moduleId = TestModule.NAME + "-" + TestModule.VERSION;
    var bootstrap = TestModule.bootstrap(platform.others().baseUrl(), "http://127.0.0.1:" + FreePorts.next(), false);
    var required = bootstrap.getJsonArray("requiredModules");
    managers.stubFor(WireMock.get(urlEqualTo("/modules/" + moduleId + "/bootstrap"))
      .willReturn(WireMock.okJson(bootstrap.copy().put("requiredModules", new JsonArray()).encode())));
    managers.stubFor(WireMock.post(urlEqualTo("/modules/" + moduleId + "/bootstrap"))
      .willReturn(WireMock.okJson(new JsonObject().put("requiredModules", required).encode())));
    managers.stubFor(WireMock.get(urlEqualTo("/modules/" + USERS_KEYCLOAK_ID + "/bootstrap"))
      .willReturn(WireMock.okJson(new JsonObject().put("module", new JsonObject().put("moduleId", USERS_KEYCLOAK_ID)
        .put("interfaces", new JsonArray().add(new JsonObject().put("id", "users-keycloak").put("version", "3.0")
          .put("endpoints", new JsonArray()
            .add(endpoint(PERMISSIONS_PATH, "users-keycloak.users.permissions.collection.get"))
            .add(endpoint(USER_PATH, "users-keycloak.item.get"))))))
        .put("requiredModules", new JsonArray()).encode())));
    managers.stubFor(WireMock.post(urlEqualTo("/modules/" + USERS_KEYCLOAK_ID + "/bootstrap"))
      .willReturn(WireMock.okJson(new JsonObject().put("requiredModules", new JsonArray()).encode())));
    var tenantEntitlements = new JsonArray();
    for (var tenant : new String[]{"alpha", "beta"}) {
      var entitlement = new JsonObject().put("applicationId", "app-platform-1.0.0")
        .put("tenantId", TestPlatform.tenantId(tenant)).put("modules", new JsonArray());
      tenantEntitlements.add(entitlement);
      managers.stubFor(WireMock.get(urlPathEqualTo("/entitlements")).withQueryParam("tenant", equalTo(tenant))
        .withQueryParam("includeModules", equalTo("false")).willReturn(WireMock.okJson(new JsonObject()
          .put("entitlements", new JsonArray().add(entitlement)).put("totalRecords", 1).encode())));
    }
    managers.stubFor(WireMock.get(urlPathEqualTo("/entitlements")).withQueryParam("includeModules", equalTo("false"))
      .atPriority(10).willReturn(WireMock.okJson(new JsonObject().put("entitlements", new JsonArray())
        .put("totalRecords", 0).encode())));
    managers.stubFor(WireMock.get(urlPathEqualTo("/entitlements/modules/" + USERS_KEYCLOAK_ID))
      .willReturn(WireMock.okJson(new JsonObject().put("entitlements", tenantEntitlements)
        .put("totalRecords", tenantEntitlements.size()).encode())));
  }

  private static JsonObject endpoint(String pathPattern, String permission) {
    return new JsonObject().put("methods", new JsonArray().add("GET")).put("pathPattern", pathPattern)
      .put("permissionsRequired", new JsonArray().add(permission));
  }

  @AfterAll
  static void stop() throws Exception {
    for (var started : new PackagedSidecar[]{sidecar, usersKeycloakSidecar}) {
      if (started != null) {
        started.close();
      }
    }
    if (usersKeycloak != null) {
      usersKeycloak.stop();
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

  @Test
  void desiredPermissionsComeFromModUsersKeycloakThroughItsSidecarWithTheServiceToken() throws Exception {
    var alpha = platform.alpha();
    var userId = alpha.allowed().folioId();
    var path = "/users-keycloak/users/" + userId + "/permissions";
    usersKeycloak.stubFor(WireMock.get(urlPathEqualTo(path))
      .willReturn(WireMock.okJson("{\"permissions\":[\"items.loans.view\"]}")));
    awaitUsersKeycloakSidecarAllowsTheServiceToken("alpha", path);
    var token = token(true);

    // the first decision of a busy Keycloak may miss its deadline (503, then 403 or no header): wait for the state
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).until(() -> send(get("/items/75/loans")
      .header("x-okapi-tenant", "alpha").header("x-okapi-token", token).build()).statusCode() == 200);

    assertThat(platform.module().findAll(getRequestedFor(urlEqualTo("/items/75/loans")))).isNotEmpty()
      .allSatisfy(request -> assertThat(request.getHeader("x-okapi-permissions")).isEqualTo("[\"items.loans.view\"]"));
    // the second sidecar verified the first one's token, had Keycloak decide, and passed the token on
    assertThat(usersKeycloak.findAll(getRequestedFor(urlPathEqualTo(path)))).hasSizeGreaterThan(1)
      .allSatisfy(request -> assertServiceToken(request, "alpha"));
  }

  @Test
  void aCrossTenantUserLookUpPassesThroughModUsersKeycloaksSidecar() throws Exception {
    var alpha = platform.alpha();
    var userId = alpha.allowed().folioId();
    // mod-users-keycloak of beta knows the alpha user (same FOLIO id) as beta_allowed
    usersKeycloak.stubFor(WireMock.get(urlPathMatching("/users-keycloak/users/[0-9a-f-]+"))
      .willReturn(WireMock.okJson("{\"id\":\"" + userId + "\",\"username\":\"beta_allowed\"}")));
    awaitUsersKeycloakSidecarAllowsTheServiceToken("beta", "/users-keycloak/users/" + java.util.UUID.randomUUID());
    var token = token(true);

    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).until(() -> send(get("/items/76")
      .header("x-okapi-tenant", "beta").header("x-okapi-token", token).build()).statusCode() == 200);

    var forwarded = platform.module().findAll(getRequestedFor(urlEqualTo("/items/76")));
    assertThat(forwarded).hasSize(1);
    var claims = Tokens.claims(forwarded.get(0).getHeader("x-okapi-token"));
    assertThat(claims.getString("iss")).endsWith("/realms/beta");
    assertThat(claims.getString("user_id")).isEqualTo(userId);
    // the username is looked up once, through the second sidecar, then reused
    var lookups = usersKeycloak.findAll(getRequestedFor(urlEqualTo("/users-keycloak/users/" + userId)));
    assertThat(lookups).hasSize(1);
    assertServiceToken(lookups.get(0), "beta");
  }

  /**
   * The second sidecar takes a tenant's service token, as the first one sends it, for {@code path}: asked
   * directly until Keycloak has answered in time once (its grant is then cached there).
   */
  private static void awaitUsersKeycloakSidecarAllowsTheServiceToken(String tenant, String path) {
    var serviceToken = platform.serviceToken(tenant);
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).until(() -> usersKeycloakSidecar.http()
      .send(HttpRequest.newBuilder(URI.create(usersKeycloakSidecar.url(path))).header("x-okapi-tenant", tenant)
        .header("x-okapi-token", serviceToken).build(), HttpResponse.BodyHandlers.discarding())
      .statusCode() == 200);
  }

  /** As upstream: mod-users-keycloak is asked with the tenant's service token as x-okapi-token, no user's. */
  private static void assertServiceToken(LoggedRequest request, String tenant) {
    assertThat(request.getHeader("x-okapi-tenant")).isEqualTo(tenant);
    var claims = Tokens.claims(request.getHeader("x-okapi-token"));
    assertThat(claims.getString("azp")).isEqualTo(FolioRealms.SERVICE_CLIENT);
    assertThat(claims.getString("iss")).endsWith("/realms/" + tenant);
    assertThat(claims.containsKey("user_id")).isFalse();
  }
}
