package org.folio.sidecar.edge;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.folio.sidecar.testkit.H2.CONTINUATION;
import static org.folio.sidecar.testkit.H2.END_HEADERS;
import static org.folio.sidecar.testkit.H2.END_STREAM;
import static org.folio.sidecar.testkit.H2.GOAWAY;
import static org.folio.sidecar.testkit.H2.HEADERS;
import static org.folio.sidecar.testkit.H2.RST_STREAM;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.io.IOException;
import java.time.Duration;
import org.folio.sidecar.testkit.H2;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 27 item 2: the HTTP/2 limits of the ingress port, spoken as a hostile client speaks them: h2c with prior
 * knowledge over a raw socket (HTTP/2 switched on, SIDECAR_HTTP2_ENABLED), frames written by hand. Each abuse ends
 * in a frame or a close the client sees, and an ordinary HTTP/1.1 request on another connection is still
 * answered 200.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true, initArgs = {
  @ResourceArg(name = "edge.http2-enabled", value = "true"),
  // the h2 test classes share one application; a long answer timeout shows that nothing is freed by timing out
  @ResourceArg(name = "sidecar.request-timeout", value = "600000")})
class Http2LimitsTest {

  private static final int NO_ERROR = 0x0;
  private static final int REFUSED_STREAM = 0x7;
  private static final int ENHANCE_YOUR_CALM = 0xb;
  private static final int SETTINGS_MAX_CONCURRENT_STREAMS = 0x3;
  private static final int SETTINGS_MAX_HEADER_LIST_SIZE = 0x6;

  @Inject
  MeterRegistry registry;

  @BeforeEach
  void reset() {
    TestPlatform.get().resetModule();
  }

  @Test
  void anOrdinaryRequestOverH2cIsAnswered() throws IOException {
    // the control: the hand-written frames below are a request the sidecar serves
    try (var h2 = H2.open(RestAssured.port)) {
      h2.frame(HEADERS, END_HEADERS | END_STREAM, 1, H2.request("GET", "/public/info", ""));
      h2.flush();
      var answer = h2.next(frame -> frame.type() == HEADERS && frame.stream() == 1 || frame.type() == GOAWAY);
      assertThat(answer.type()).isEqualTo(HEADERS);
      assertThat(answer.firstHeaderValue()).isEqualTo("200");
    }
  }

  @Test
  void settingsAdvertiseTheConfiguredLimitsAndAStreamOverTheCapIsRefused() throws IOException {
    try (var h2 = H2.open(RestAssured.port)) {
      var settings = h2.settings();
      assertThat(settings.setting(SETTINGS_MAX_CONCURRENT_STREAMS)).isEqualTo(100);
      assertThat(settings.setting(SETTINGS_MAX_HEADER_LIST_SIZE)).isEqualTo(20480);
      // 101 POSTs whose bodies never come: each stream stays open, the 101st is one too many
      for (int i = 0; i < 101; i++) {
        h2.frame(HEADERS, END_HEADERS, 1 + 2 * i, H2.request("POST", "/items", ""));
      }
      h2.flush();
      var refused = h2.next(frame -> frame.type() == RST_STREAM || frame.type() == GOAWAY);
      assertThat(refused.type()).isEqualTo(RST_STREAM);
      assertThat(refused.stream()).isEqualTo(1 + 2 * 100);
      assertThat(refused.errorCode(0)).isEqualTo(REFUSED_STREAM);
    }
    ordinaryRequestIsAnswered();
  }

  @Test
  void rapidResetFloodEndsTheConnection() throws IOException {
    // CVE-2023-44487: streams opened and reset at once never count against the concurrent-streams cap
    try (var h2 = H2.open(RestAssured.port)) {
      for (int i = 0; i < 1000 && h2.alive(); i++) {
        int stream = 1 + 2 * i;
        h2.frame(HEADERS, END_HEADERS | END_STREAM, stream, H2.request("GET", "/public/info", ""));
        h2.frame(RST_STREAM, 0, stream, new byte[]{0, 0, 0, 8});
        h2.flush();
      }
      assertThat(h2.goAway()).as("GOAWAY ENHANCE_YOUR_CALM, or closed after it").isIn(ENHANCE_YOUR_CALM, -1);
    }
    ordinaryRequestIsAnswered();
  }

  @Test
  void continuationFloodEndsTheConnection() throws IOException {
    // CVE-2024-27316: a header block that never ends, each CONTINUATION adding to it
    try (var h2 = H2.open(RestAssured.port)) {
      h2.frame(HEADERS, 0, 1, H2.request("GET", "/public/info", ""));
      var filler = H2.literal("x-filler", "a".repeat(1000));
      for (int i = 0; i < 10_000 && h2.alive(); i++) {
        h2.frame(CONTINUATION, 0, 1, filler);
        h2.flush();
      }
      assertThat(h2.goAway()).as("GOAWAY with an error, or a closed connection").isNotEqualTo(NO_ERROR);
    }
    ordinaryRequestIsAnswered();
  }

  @Test
  void headerListOverTheLimitIsRefused() throws IOException {
    try (var h2 = H2.open(RestAssured.port)) {
      h2.frame(HEADERS, END_HEADERS | END_STREAM, 1, H2.request("GET", "/public/info", "a".repeat(30_000)));
      h2.flush();
      // either the stream is refused (RST_STREAM, or a 431 HEADERS answer) or the connection ends
      var answer = h2.nextOrEnd(frame -> frame.type() == RST_STREAM || frame.type() == GOAWAY
        || frame.type() == HEADERS && frame.stream() == 1);
      if (answer != null && answer.type() == HEADERS) {
        assertThat(answer.firstHeaderValue()).as(":status").isIn("431", "400");
      }
    }
    ordinaryRequestIsAnswered();
  }

  /**
   * Once the abusive connection's module requests are let go (a busy machine may still be finishing them when the
   * connection ends, and this caller shares their address, so their SIDECAR_FORWARD_MAX_CONNECTIONS_PER_CALLER).
   */
  private void ordinaryRequestIsAnswered() {
    await().atMost(Duration.ofSeconds(30)).untilAsserted(
      () -> assertThat(registry.get("sidecar.forward.connections").gauge().value()).isZero());
    given().header("x-okapi-tenant", "alpha").get("/public/info").then().statusCode(200);
  }
}
