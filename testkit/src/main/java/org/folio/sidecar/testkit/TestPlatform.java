package org.folio.sidecar.testkit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Everything the sidecar talks to, started once per test JVM and shared by all test classes: the real
 * Keycloak with two FOLIO-style tenant realms behind a counting hop, and WireMock playing the module.
 * Quarkus loads each application start's test code in a new class loader, so the platform publishes what
 * tests need as system properties and every class loader rebuilds its view from them.
 */
public final class TestPlatform {

  private static final Logger LOGGER = Logger.getLogger(TestPlatform.class);
  private static final String PREFIX = "testplatform.";
  public static final int ACCESS_TOKEN_LIFESPAN_SECONDS = 300;
  public static final String ADMIN_TOKEN = "test-admin-token-0123456789";
  /** Where the sidecar finds {@link #ADMIN_TOKEN}: SIDECAR_ADMIN_SECRET_KEY's default for the env {@code folio}. */
  public static final String ADMIN_SECRET_KEY = "folio_sidecar_admin";
  public static final String ADMIN_CLIENT_SECRET = "backend-admin-secret-0123456789";
  public static final int SERVICE_TENANTS = 60;
  /** A tenant whose tokens live a few seconds, so token refreshes happen within one test. */
  public static final String SHORT_LIVED = "shortlived";
  public static final int SHORT_LIFESPAN_SECONDS = 6;
  private static TestPlatform instance;

  private final KeycloakAdmin keycloakAdmin;
  private final String hopUrl;
  private final HopControl hop;
  private final ModuleStub module;
  private final ModuleStub others;
  private final ModuleStub dedicated;
  private final java.nio.file.Path overridesFile;
  private final TestTenant alpha;
  private final TestTenant beta;
  private final Tokens tokens;
  private final String descriptorPath;

  private TestPlatform() {
    keycloakAdmin = new KeycloakAdmin(property("keycloak"));
    hopUrl = property("hop");
    hop = new HopControl(property("hop.control"));
    module = new ModuleStub(Integer.parseInt(property("module.port")));
    others = new ModuleStub(Integer.parseInt(property("others.port")));
    dedicated = new ModuleStub(Integer.parseInt(property("dedicated.port")));
    overridesFile = java.nio.file.Path.of(property("overrides"));
    alpha = tenant("alpha");
    beta = tenant("beta");
    tokens = new Tokens(keycloakAdmin);
    descriptorPath = property("descriptor");
  }

  public static synchronized TestPlatform get() {
    if (instance == null) {
      boolean started = false;
      synchronized (System.class) {
        if (System.getProperty(PREFIX + "keycloak") == null) {
          startAndPublish();
          started = true;
        }
      }
      instance = new TestPlatform();
      if (started) {
        instance.resetModule();
      }
    }
    return instance;
  }

  private static void startAndPublish() {
    var wireMock = wireMock();
    var others = wireMock();
    var dedicated = wireMock();
    var managers = wireMock();
    var kafkaProxy = new TcpProxy(FreePorts.next());
    var kafka = KafkaBroker.start(List.of("folio.discovery", "folio.entitlement",
      "folio.alpha.mod-login-keycloak.logout", "folio.beta.mod-login-keycloak.logout"), kafkaProxy);
    var keycloak = KeycloakServer.get();
    keycloak.hop().addControl("/kafka/cut", kafkaProxy::cut);
    keycloak.hop().addControl("/kafka/restore", kafkaProxy::start);
    long started = System.nanoTime();
    var realms = new FolioRealms(keycloak.admin());
    realms.provisionAdminClient(ADMIN_CLIENT_SECRET);
    stubManagers(new ModuleStub(managers.port()));
    var provisioned = List.of(realms.provision("alpha", ACCESS_TOKEN_LIFESPAN_SECONDS),
      realms.provision("beta", ACCESS_TOKEN_LIFESPAN_SECONDS));
    realms.provisionSystemUser("alpha", TestModule.NAME);
    LOGGER.infof("Provisioned 2 realms in %d ms", (System.nanoTime() - started) / 1_000_000);
    for (var tenant : provisioned) {
      var key = PREFIX + "tenant." + tenant.name() + ".";
      System.setProperty(key + "kid", tenant.keyId());
      System.setProperty(key + "private",
        Base64.getEncoder().encodeToString(tenant.signingKey().getPrivate().getEncoded()));
      System.setProperty(key + "public",
        Base64.getEncoder().encodeToString(tenant.signingKey().getPublic().getEncoded()));
    }
    var downUrl = "http://127.0.0.1:" + FreePorts.next();
    System.setProperty(PREFIX + "descriptor", TestModule.writeBootstrap(others.baseUrl(), downUrl, false).toString());
    System.setProperty(PREFIX + "descriptor.system-user",
      TestModule.writeBootstrap(others.baseUrl(), downUrl, true).toString());
    System.setProperty(PREFIX + "overrides", writeOverrides("{}"));
    System.setProperty(PREFIX + "module.port", String.valueOf(wireMock.port()));
    System.setProperty(PREFIX + "others.port", String.valueOf(others.port()));
    System.setProperty(PREFIX + "dedicated.port", String.valueOf(dedicated.port()));
    System.setProperty(PREFIX + "managers", managers.baseUrl());
    System.setProperty(PREFIX + "managers.port", String.valueOf(managers.port()));
    System.setProperty(PREFIX + "kafka", kafka);
    // the gateway of the fallback test: the dedicated stub stands in for it
    System.setProperty(PREFIX + "gateway", dedicated.baseUrl());
    System.setProperty(PREFIX + "hop", keycloak.hop().url());
    System.setProperty(PREFIX + "hop.control", keycloak.hop().startControl());
    System.setProperty(PREFIX + "keycloak", keycloak.admin().baseUrl());
  }

  public static String tenantId(String tenant) {
    return java.util.UUID.nameUUIDFromBytes(tenant.getBytes()).toString();
  }

  /** mgr-tenant-entitlements and mgr-tenants: every test tenant is entitled to the module. */
  private static void stubManagers(ModuleStub managers) {
    var entitlements = new io.vertx.core.json.JsonArray();
    var tenants = new io.vertx.core.json.JsonArray();
    for (var name : allTenantNames()) {
      entitlements.add(new io.vertx.core.json.JsonObject().put("applicationId", "app-items-1.0.0")
        .put("tenantId", tenantId(name)).put("modules", new io.vertx.core.json.JsonArray()));
      tenants.add(new io.vertx.core.json.JsonObject().put("id", tenantId(name)).put("name", name));
    }
    managers.stubFor(
      WireMock.get(WireMock.urlPathEqualTo("/entitlements/modules/" + TestModule.NAME + "-" + TestModule.VERSION))
        .willReturn(WireMock.okJson(new io.vertx.core.json.JsonObject().put("entitlements", entitlements)
          .put("totalRecords", entitlements.size()).encode())));
    managers.stubFor(WireMock.get(WireMock.urlPathEqualTo("/tenants"))
      .willReturn(WireMock.okJson(new io.vertx.core.json.JsonObject().put("tenants", tenants)
        .put("totalRecords", tenants.size()).encode())));
  }

  private static WireMockServer wireMock() {
    var server = new WireMockServer(WireMockConfiguration.options().dynamicPort().bindAddress("127.0.0.1")
      .containerThreads(64));
    server.start();
    return server;
  }

  private static String writeOverrides(String json) {
    try {
      var file = java.nio.file.Files.createTempFile("route-overrides", ".json");
      java.nio.file.Files.writeString(file, json);
      file.toFile().deleteOnExit();
      return file.toString();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String property(String name) {
    return System.getProperty(PREFIX + name);
  }

  private static TestTenant tenant(String name) {
    var key = "tenant." + name + ".";
    try {
      var factory = KeyFactory.getInstance("RSA");
      var keyPair = new KeyPair(
        factory.generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(property(key + "public")))),
        factory.generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(property(key + "private")))));
      return new TestTenant(name, TestTenant.User.of(name, "allowed"), TestTenant.User.of(name, "denied"), keyPair,
        property(key + "kid"));
    } catch (Exception e) {
      throw new IllegalStateException("cannot rebuild tenant " + name, e);
    }
  }

  /** The configuration that points a sidecar at this platform. */
  public Map<String, String> sidecarConfig() {
    var config = new java.util.HashMap<String, String>();
    for (var tenant : allTenantNames()) {
      config.put("secret-store.ephemeral.content.folio_" + tenant + "_" + FolioRealms.SERVICE_CLIENT,
        TestTenant.SERVICE_SECRET);
    }
    config.put("secret-store.ephemeral.content.folio_master_folio-backend-admin-client", ADMIN_CLIENT_SECRET);
    // the system user of the module in alpha: login client secret and password, under upstream's key names
    config.put("secret-store.ephemeral.content.folio_alpha_alpha-login-application", TestTenant.LOGIN_SECRET);
    config.put("secret-store.ephemeral.content.folio_alpha_" + TestModule.NAME, TestTenant.PASSWORD);
    config.put("egress.route-overrides-file", overridesFile.toString());
    config.put("tenant.entitlements-url", property("managers"));
    config.put("tenant.tenants-url", property("managers"));
    config.put("users.keycloak-url", property("managers"));
    var kafka = property("kafka");
    config.put("events.kafka-host", kafka.substring(0, kafka.lastIndexOf(':')));
    config.put("events.kafka-port", kafka.substring(kafka.lastIndexOf(':') + 1));
    config.put("events.topic-refresh-interval", "1s");
    // tests count Keycloak calls exactly; a first re-check at a random age would add some (RefreshSpreadTest has
    // the spread)
    config.put("sidecar.authz-cache.refresh-jitter", "false");
    // the tests read the compact access line (milliseconds, reason); upstream's format has its own tests
    config.put("sidecar.access-log-format", "compact");
    // entitlement changes in these tests come from events only, never from a reload racing them
    config.put("tenant.unknown-tenant-reload-interval", "1h");
    // the tests call egress from loopback, as a module in its pod does
    config.put("egress.loopback-only", "true");
    // the test module has no system user (as mod-users-keycloak); the fail-fast default has tests of its own
    config.put("egress.ignore-system-user-token-error", "true");
    config.putAll(Map.ofEntries(
      Map.entry("kc.url", hopUrl),
      Map.entry("module.url", module.baseUrl()),
      Map.entry("module.name", TestModule.NAME),
      Map.entry("module.version", TestModule.VERSION),
      Map.entry("module.descriptor-path", descriptorPath),
      Map.entry("sidecar.url", "http://127.0.0.1:8081"),
      // upstream's default: the stub module answers at once, but a busy machine may not get to it for seconds
      Map.entry("sidecar.request-timeout", "60000"),
      Map.entry("sidecar.health-probe-interval", "1s"),
      // longer than any pause of a busy machine between two steps; a test that needs it to pass moves the clock
      Map.entry("sidecar.authz-cache.deny-ttl", "1m"),
      Map.entry("kc.jwt-clock-skew", "1s"),
      // the admin API's credential (docs/admin-api.md), in the secret store under its default key
      Map.entry("secret-store.ephemeral.content." + ADMIN_SECRET_KEY, ADMIN_TOKEN)));
    return config;
  }

  private static List<String> allTenantNames() {
    var names = new ArrayList<String>(List.of("alpha", "beta", SHORT_LIVED));
    for (int i = 1; i <= SERVICE_TENANTS; i++) {
      names.add(String.format("svc%02d", i));
    }
    return names;
  }

  /** WireMock playing mgr-tenant-entitlements, mgr-tenants and mod-users-keycloak. */
  public ModuleStub managers() {
    return new ModuleStub(Integer.parseInt(property("managers.port")));
  }

  public Events events() {
    return new Events(property("kafka"));
  }

  public String descriptorPath() {
    return descriptorPath;
  }

  /** The modules the sidecar's module calls, at their discovered location. */
  public ModuleStub others() {
    return others;
  }

  /** The dedicated deployment of the DB-heavy modules, reached only through a route override. */
  public ModuleStub dedicated() {
    return dedicated;
  }

  /** Rewrites the mounted route-overrides file, as a ConfigMap update would. */
  public void writeRouteOverrides(String json) {
    try {
      java.nio.file.Files.writeString(overridesFile, json);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The module answers 200 with a small JSON body to everything unless a test says otherwise. */
  public void resetModule() {
    for (var stub : List.of(others, dedicated)) {
      stub.resetTo(List.of(any(anyUrl()).atPriority(10).willReturn(aResponse().withStatus(200)
        .withHeader("content-type", "application/json")
        .withBody("{\"from\":\"" + (stub == others ? "discovered" : "dedicated") + "\"}"))));
    }
    module.resetTo(List.of(
      any(anyUrl()).atPriority(10).willReturn(aResponse().withStatus(200)
        .withHeader("content-type", "application/json").withBody("{\"module\":\"mod-items\"}")),
      WireMock.get(urlEqualTo("/admin/health")).willReturn(aResponse().withStatus(200))));
  }

  public ModuleStub module() {
    return module;
  }

  public HopControl keycloakHop() {
    return hop;
  }

  public KeycloakAdmin keycloakAdmin() {
    return keycloakAdmin;
  }

  public TestTenant alpha() {
    return alpha;
  }

  public TestTenant beta() {
    return beta;
  }

  public Tokens tokens() {
    return tokens;
  }

  /** 60 more tenant realms with only what service tokens need, provisioned on first use (under a second each). */
  public List<String> serviceTenants() {
    var names = allTenantNames().subList(3, 3 + SERVICE_TENANTS);
    synchronized (System.class) {
      if (System.getProperty(PREFIX + "service-tenants") == null) {
        long started = System.nanoTime();
        var realms = new FolioRealms(keycloakAdmin);
        names.forEach(realms::provisionServiceOnly);
        System.setProperty(PREFIX + "service-tenants", "provisioned");
        LOGGER.infof("Provisioned %d service-only realms in %d ms", SERVICE_TENANTS,
          (System.nanoTime() - started) / 1_000_000);
      }
    }
    return List.copyOf(names);
  }

  public static final String IMPERSONATION_SECRET = "impersonation-secret-0123456789";

  /** Beta's impersonation client (token exchange), provisioned on first use. */
  public synchronized void impersonationInBeta() {
    if (System.getProperty(PREFIX + "impersonation") == null) {
      new FolioRealms(keycloakAdmin).provisionImpersonation("beta", IMPERSONATION_SECRET);
      System.setProperty(PREFIX + "impersonation", "provisioned");
    }
  }

  public synchronized String shortLivedTenant() {
    if (System.getProperty(PREFIX + "short-lived") == null) {
      new FolioRealms(keycloakAdmin).provisionServiceOnly(SHORT_LIVED, SHORT_LIFESPAN_SECONDS);
      System.setProperty(PREFIX + "short-lived", "provisioned");
    }
    return SHORT_LIVED;
  }

  public String serviceToken(String tenant) {
    return keycloakAdmin.token(tenant, Map.of("grant_type", "client_credentials",
      "client_id", FolioRealms.SERVICE_CLIENT, "client_secret", TestTenant.SERVICE_SECRET)).getString("access_token");
  }
}
