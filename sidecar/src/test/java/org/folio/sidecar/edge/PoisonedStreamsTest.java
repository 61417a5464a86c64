package org.folio.sidecar.edge;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.folio.sidecar.testkit.H2.DATA;
import static org.folio.sidecar.testkit.H2.END_HEADERS;
import static org.folio.sidecar.testkit.H2.END_STREAM;
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
import java.util.HashSet;
import org.folio.sidecar.testkit.H2;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.Test;

/**
 * Issue 34 item 2: no request holds a connection to the module it does not use. 1,000 HTTP/2 streams that fail
 * between the request and its head reaching the module (a header value the client would refuse, a stream reset
 * before its head is out, a body cut off by a reset): the forwarder's count of requests holding or awaiting a module
 * connection goes back to 0 by itself, long before any timeout, and an ordinary request is then answered 200.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true, initArgs = {
  @ResourceArg(name = "edge.http2-enabled", value = "true"),
  // the h2 test classes share one application; a long answer timeout shows that nothing is freed by timing out
  @ResourceArg(name = "sidecar.request-timeout", value = "600000")})
class PoisonedStreamsTest {

  private static final int CONNECTIONS = 10;
  private static final int STREAMS_PER_CONNECTION = 100;
  private static final String[] BAD_VALUES = {"a\r\nb", "a\u0000b", "a\u000bb", "a\nx-okapi-tenant: beta"};

  @Inject
  MeterRegistry registry;

  @Test
  void poisonedStreamsLeaveNoModuleConnectionHeld() throws IOException {
    var platform = TestPlatform.get();
    platform.resetModule();
    int poisoned = 0;
    for (int c = 0; c < CONNECTIONS; c++) {
      try (var h2 = H2.open(RestAssured.port)) {
        var refusedStreams = new HashSet<Integer>();
        for (int i = 0; i < STREAMS_PER_CONNECTION; i++) {
          int stream = 1 + 2 * i;
          switch (i % 3) {
            case 0 -> {
              // a value Vert.x's client refuses inside its connection callback, where it used to hang
              h2.frame(HEADERS, END_HEADERS | END_STREAM, stream, H2.block(":method", "GET", ":scheme", "http",
                ":path", "/public/info?v=poisoned", ":authority", "localhost", "x-okapi-tenant", "alpha", "x-bad",
                BAD_VALUES[i % BAD_VALUES.length]));
              refusedStreams.add(stream);
            }
            case 1 -> {
              // gone before the sidecar has a connection for it
              h2.frame(HEADERS, END_HEADERS | END_STREAM, stream, H2.request("GET", "/public/info", ""));
              h2.frame(RST_STREAM, 0, stream, new byte[]{0, 0, 0, 8});
            }
            default -> {
              // a body announced, begun and cut off: the head may be out, the module must not keep waiting
              h2.frame(HEADERS, END_HEADERS, stream, H2.block(":method", "POST", ":scheme", "http", ":path",
                "/_/tenant?v=cut", ":authority", "localhost", "x-okapi-tenant", "alpha", "content-type",
                "application/json", "content-length", "100"));
              h2.frame(DATA, 0, stream, "{\"module_to\"".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
              h2.frame(RST_STREAM, 0, stream, new byte[]{0, 0, 0, 8});
            }
          }
          poisoned++;
        }
        h2.flush();
        while (!refusedStreams.isEmpty()) {
          var answer = h2.nextOrEnd(frame -> refusedStreams.contains(frame.stream())
            && (frame.type() == HEADERS || frame.type() == RST_STREAM));
          assertThat(answer).as("an answer to each stream with a bad header, " + refusedStreams.size() + " left")
            .isNotNull();
          assertThat(answer.type()).isEqualTo(HEADERS);
          assertThat(answer.firstHeaderValue()).isEqualTo("400");
          refusedStreams.remove(answer.stream());
        }
      }
    }

    // every poisoned stream lets go of its module connection by itself (the answer timeout is 10 minutes); until
    // then this caller may still be at its per-caller cap, so the ordinary request waits for that state, not a time
    long started = System.nanoTime();
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(held()).isZero());
    long releasedMillis = (System.nanoTime() - started) / 1_000_000;
    given().header("x-okapi-tenant", "alpha").get("/public/info").then().statusCode(200);
    System.out.printf("poisoned streams: %d sent, module connections all released %d ms after the last; then an"
      + " ordinary request answered 200%n", poisoned, releasedMillis);
    platform.module().verify(0, anyRequestedFor(urlPathEqualTo("/public/info")).withQueryParam("v",
      com.github.tomakehurst.wiremock.client.WireMock.equalTo("poisoned")));
  }

  private double held() {
    return registry.get("sidecar.forward.connections").gauge().value();
  }
}
