package org.folio.sidecar.forward;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.folio.sidecar.testkit.H2.END_HEADERS;
import static org.folio.sidecar.testkit.H2.END_STREAM;
import static org.folio.sidecar.testkit.H2.HEADERS;
import static org.folio.sidecar.testkit.H2.SETTINGS;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import org.folio.sidecar.testkit.H2;
import org.folio.sidecar.testkit.RawHttp;
import org.folio.sidecar.support.LogCapture;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.support.Waits;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.Test;

/**
 * Issue 43 item 2: callers that ask for a large answer and never read it (a tiny receive window over HTTP/1.1,
 * SETTINGS_INITIAL_WINDOW_SIZE=0 over HTTP/2) hold a module connection each only until the send timeout (1 s
 * here, 60 s by default): meanwhile another caller is answered 200, and afterwards no module connection is held.
 * An HTTP/1.1 reader's own connection is reset then too, and its access line written, before the reader leaves.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, initArgs = {
  @ResourceArg(name = "edge.http2-enabled", value = "true"),
  @ResourceArg(name = "sidecar.send-timeout", value = "1s"),
  @ResourceArg(name = "sidecar.request-timeout", value = "600000")})
class SlowReadersTest {

  private static final int READERS = 50;
  private static final int BIG = 8 * 1024 * 1024;
  private static final String PARKED = "parked-h1";

  @Inject
  MeterRegistry registry;

  private static void stubBigAnswer() {
    var platform = TestPlatform.get();
    platform.resetModule();
    platform.module().stubFor(get(urlPathEqualTo("/public/info")).withQueryParam("size", equalTo("big"))
      .willReturn(aResponse().withStatus(200).withHeader("content-type", "application/octet-stream")
        .withBody(new byte[BIG])));
  }

  @Test
  void http1ReadersThatNeverReadAreCutAtTheSendTimeout() throws IOException {
    stubBigAnswer();
    var readers = new ArrayList<Socket>();
    try (var capture = LogCapture.install()) {
      for (int i = 0; i < READERS; i++) {
        readers.add(RawHttp.parkedReader(RestAssured.port, "/public/info?size=big", "x-okapi-request-id: " + PARKED));
      }
      await().atMost(Duration.ofSeconds(30)).until(() -> held() > 0);

      given().header("x-okapi-tenant", "alpha").get("/public/info").then().statusCode(200);

      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(held()).isZero());
      // written as the sidecar cuts the relays, with the status that went out, not once the readers leave
      await().atMost(Waits.STATE).untilAsserted(() -> assertThat(capture.lines())
        .filteredOn(line -> line.contains("(access) GET /public/info 200 ") && line.contains(" rid=" + PARKED + ";"))
        .hasSize(READERS));
      for (var reader : readers) {
        assertThat(closedBySidecar(reader)).isTrue();
      }
    } finally {
      for (var socket : readers) {
        socket.close();
      }
    }
  }

  /** Reads what the sidecar had sent before it closed: the end of the stream, or a reset. */
  private static boolean closedBySidecar(Socket reader) throws IOException {
    reader.setSoTimeout((int) Waits.STATE.toMillis());
    var buffer = new byte[64 * 1024];
    try {
      while (reader.getInputStream().read(buffer) >= 0) {
        // what the kernels held when the connection was closed
      }
      return true;
    } catch (SocketException reset) {
      return true;
    } catch (SocketTimeoutException open) {
      return false;
    }
  }

  @Test
  void http2StreamsWithAShutWindowAreResetAtTheSendTimeout() throws IOException {
    stubBigAnswer();
    try (var h2 = H2.open(RestAssured.port)) {
      // SETTINGS_INITIAL_WINDOW_SIZE (4) = 0: no stream may be sent a byte of DATA
      h2.frame(SETTINGS, 0, 0, new byte[]{0, 4, 0, 0, 0, 0});
      for (int i = 0; i < READERS; i++) {
        h2.frame(HEADERS, END_HEADERS | END_STREAM, 1 + 2 * i, H2.block(":method", "GET", ":scheme", "http",
          ":path", "/public/info?size=big", ":authority", "localhost", "x-okapi-tenant", "alpha"));
      }
      h2.flush();
      await().atMost(Duration.ofSeconds(30)).until(() -> held() > 0);

      given().header("x-okapi-tenant", "alpha").get("/public/info").then().statusCode(200);

      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(held()).isZero());
    }
  }

  private double held() {
    return registry.get("sidecar.forward.connections").gauge().value();
  }
}
