package org.folio.sidecar.edge;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlMatching;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.net.URI;
import org.folio.sidecar.testkit.RawHttp;
import org.folio.sidecar.support.SidecarCalls;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.Test;

/**
 * Issue 34 item 1: with SIDECAR_HTTP2_ENABLED off (the default) the plain port speaks HTTP/1.1 only. FOLIO's
 * gateway, sidecars and modules never ask for more, and every HTTP/2 feature is surface a hostile client could use.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class Http2SwitchTest {

  @Test
  void anH2cUpgradeIsServedAsPlainHttp11() {
    var platform = TestPlatform.get();
    platform.resetModule();
    var request = "GET /public/info?v=upgrade HTTP/1.1\r\nHost: x\r\nx-okapi-tenant: alpha\r\n"
      + "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n";

    var exchange = RawHttp.send(RestAssured.port, request, 2000);

    assertThat(exchange.received()).startsWith("HTTP/1.1 200");
    // the upgrade request was an ordinary one, and its hop-by-hop headers stayed at the edge
    platform.module().verify(1, getRequestedFor(urlEqualTo("/public/info?v=upgrade"))
      .withoutHeader("upgrade").withoutHeader("http2-settings"));
  }

  @Test
  void thePriorKnowledgePrefaceIsRefused() {
    var platform = TestPlatform.get();
    platform.resetModule();

    assertPrefaceRefused(RestAssured.port);
    // nothing but the sidecar's own readiness probe of the module, which a fresh start sends at once
    platform.module().verify(0, anyRequestedFor(urlMatching("/(?!admin/health$).*")));
  }

  /**
   * Issue 43 row 10: the management port (health, metrics, the admin API) spoke h2c with HTTP/2 off, since Quarkus
   * builds its options without any HTTP/2 setting. It speaks HTTP/1.1 only, as the traffic port does.
   */
  @Test
  void theManagementPortRefusesThePrefaceAndServesAnUpgradeAsHttp11() {
    int management = URI.create(SidecarCalls.managementBase()).getPort();

    assertPrefaceRefused(management);
    var exchange = RawHttp.send(management, "GET /q/metrics HTTP/1.1\r\nHost: x\r\n"
      + "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n",
      2000);
    assertThat(exchange.received()).startsWith("HTTP/1.1 200").contains("sidecar_");
  }

  private static void assertPrefaceRefused(int port) {
    // the preface, then a SETTINGS frame, as an h2c client with prior knowledge opens
    var preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + "\u0000\u0000\u0000\u0004\u0000\u0000\u0000\u0000\u0000";

    var exchange = RawHttp.send(port, preface, 2000);

    // no SETTINGS frame comes back: an HTTP/1 error only (Vert.x: "HTTP/2.0 501", a version it does not serve), or
    // a closed connection
    var received = exchange.received();
    if (received.isEmpty()) {
      assertThat(exchange.closed()).isTrue();
    } else {
      assertThat(received).matches("(?s)HTTP/[12]\\.[01] [45]\\d\\d .*").doesNotContain(" 200 ", " 101 ");
    }
  }
}
