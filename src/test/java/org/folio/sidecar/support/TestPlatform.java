package org.folio.sidecar.support;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Everything the sidecar talks to, started once per test JVM and shared by all test classes: the real
 * Keycloak with two FOLIO-style tenant realms, and WireMock playing the module.
 */
public final class TestPlatform {

  private static final Logger LOGGER = Logger.getLogger(TestPlatform.class);
  public static final int ACCESS_TOKEN_LIFESPAN_SECONDS = 300;
  private static TestPlatform instance;

  private final KeycloakServer keycloak;
  private final WireMockServer module;
  private final TestTenant alpha;
  private final TestTenant beta;
  private final Tokens tokens;
  private final String descriptorPath;

  private TestPlatform() {
    module = new WireMockServer(WireMockConfiguration.options().dynamicPort().bindAddress("127.0.0.1"));
    module.start();
    resetModule();
    keycloak = KeycloakServer.get();
    long started = System.nanoTime();
    var realms = new FolioRealms(keycloak.admin());
    alpha = realms.provision("alpha", ACCESS_TOKEN_LIFESPAN_SECONDS);
    beta = realms.provision("beta", ACCESS_TOKEN_LIFESPAN_SECONDS);
    LOGGER.infof("Provisioned 2 realms in %d ms", (System.nanoTime() - started) / 1_000_000);
    tokens = new Tokens(keycloak.admin());
    descriptorPath = TestModule.writeDescriptor().toString();
  }

  public static synchronized TestPlatform get() {
    if (instance == null) {
      instance = new TestPlatform();
    }
    return instance;
  }

  /** The configuration that points a sidecar at this platform. */
  public Map<String, String> sidecarConfig() {
    return Map.of(
      "kc.url", keycloak.hop().url(),
      "module.url", module.baseUrl(),
      "module.name", TestModule.NAME,
      "module.version", TestModule.VERSION,
      "module.descriptor-path", descriptorPath,
      "sidecar.url", "http://127.0.0.1:8081",
      "sidecar.request-timeout", "3000",
      "sidecar.health-probe-interval", "1s");
  }

  /** The module answers 200 with a small JSON body to everything unless a test says otherwise. */
  public void resetModule() {
    module.resetAll();
    module.stubFor(any(anyUrl()).atPriority(10).willReturn(aResponse().withStatus(200)
      .withHeader("content-type", "application/json").withBody("{\"module\":\"mod-items\"}")));
    module.stubFor(com.github.tomakehurst.wiremock.client.WireMock.get(urlEqualTo("/admin/health")).willReturn(aResponse().withStatus(200)));
  }

  public WireMockServer module() {
    return module;
  }

  public CountingHop keycloakHop() {
    return keycloak.hop();
  }

  public KeycloakAdmin keycloakAdmin() {
    return keycloak.admin();
  }

  public TestTenant alpha() {
    return alpha;
  }

  public TestTenant beta() {
    return beta;
  }

  public List<TestTenant> tenants() {
    return List.of(alpha, beta);
  }

  public Tokens tokens() {
    return tokens;
  }
}
