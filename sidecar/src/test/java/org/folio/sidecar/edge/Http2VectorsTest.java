package org.folio.sidecar.edge;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlMatching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.folio.sidecar.testkit.H2.DATA;
import static org.folio.sidecar.testkit.H2.END_HEADERS;
import static org.folio.sidecar.testkit.H2.END_STREAM;
import static org.folio.sidecar.testkit.H2.HEADERS;
import static org.folio.sidecar.testkit.H2.RST_STREAM;

import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.folio.sidecar.support.AccessLines;
import org.folio.sidecar.testkit.H2;
import org.folio.sidecar.support.LogCapture;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.support.Waits;
import org.folio.sidecar.forward.ConsoleEscape;
import org.jboss.logmanager.ExtLogRecord;
import org.folio.sidecar.testkit.TestPlatform;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 34 items 1 and 5: with HTTP/2 switched on, a request HTTP/1.1's decoder would refuse is refused over h2
 * too, before anything reaches the module. Each row is one stream on a fresh h2c connection (prior knowledge, raw
 * frames, HPACK literals so any byte goes through), to the module's system interface (no token needed); its
 * outcome (status, RST_STREAM or GOAWAY), whether the connection still serves, and what the module stub received
 * are asserted. The totals are printed for the record.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true, initArgs = {
  @ResourceArg(name = "edge.http2-enabled", value = "true"),
  // the h2 test classes share one application; a long answer timeout shows that nothing is freed by timing out
  @ResourceArg(name = "sidecar.request-timeout", value = "600000")})
class Http2VectorsTest {

  private static final AtomicInteger ROWS = new AtomicInteger();
  private static final AtomicInteger REFUSED = new AtomicInteger();
  private static final AtomicInteger FORWARDED = new AtomicInteger();
  private static final AtomicInteger MARKERS = new AtomicInteger();

  /** One vector: its header fields in order, a body (sent as one DATA frame) or null, and whether it may pass. */
  record Vector(String name, List<String> fields, @Nullable String body, boolean forwarded) {

    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> vectors() {
    var rows = new ArrayList<Vector>();
    IntStream.concat(IntStream.rangeClosed(0x00, 0x1f).filter(b -> b != 0x09), IntStream.of(0x7f)).forEach(b -> {
      var hex = HexFormat.of().toHexDigits((byte) b);
      rows.add(refused("value with 0x" + hex, "x-bad", "a" + (char) b + "b"));
      rows.add(refused("name with 0x" + hex, "x-b" + (char) b + "d", "a"));
    });
    rows.add(refused("value CR LF and a header after it", "x-bad", "a\r\nx-okapi-tenant: beta"));
    rows.add(refused("value starting with a space", "x-bad", " a"));
    rows.add(refused("value ending with a tab", "x-bad", "a\t"));
    rows.add(refused("upper-case name", "X-Bad", "a"));
    rows.add(refused("upper-case tenant header", "X-Okapi-Tenant", "beta"));
    rows.add(refused("name with a space", "x bad", "a"));
    rows.add(refused("name with a colon", "x:bad", "a"));
    rows.add(refused("empty name", "", "a"));
    rows.add(refused("te: gzip", "te", "gzip"));
    rows.add(refused("connection", "connection", "close"));
    rows.add(refused("keep-alive", "keep-alive", "timeout=5"));
    rows.add(refused("proxy-connection", "proxy-connection", "keep-alive"));
    rows.add(refused("transfer-encoding", "transfer-encoding", "chunked"));
    rows.add(refused("upgrade", "upgrade", "websocket"));
    rows.add(refused("host disagreeing with :authority", "host", "evil.example"));
    rows.add(new Vector("pseudo-header after a regular one", List.of(":method", "GET", ":scheme", "http", ":path",
      "/public/info?v=%d", "x-okapi-tenant", "alpha", ":authority", "localhost"), null, false));
    rows.add(refused("unknown pseudo-header", ":foo", "bar"));
    rows.add(new Vector(":path repeated", withPath("/public/info?v=%d", ":path", "/admin/health"), null, false));
    rows.add(new Vector(":method repeated", withPath("/public/info?v=%d", ":method", "DELETE"), null, false));
    rows.add(new Vector(":path with a space", pathOnly("/public/info?v=%d x"), null, false));
    rows.add(new Vector(":path with a CR LF", pathOnly("/public/info?v=%d\r\nx-okapi-tenant: beta"), null, false));
    rows.add(new Vector(":path with a NUL", pathOnly("/public/info?v=%d\u0000"), null, false));
    rows.add(new Vector("content-length above the DATA", post("5"), "{}", false));
    rows.add(new Vector("content-length below the DATA", post("1"), "{}", false));
    rows.add(passes("te: trailers", "te", "trailers"));
    rows.add(passes("host agreeing with :authority", "host", "localhost"));
    rows.add(passes("obs-text in a value", "x-note", "caf\u00e9"));
    rows.add(new Vector("body without content-length", post(null), "{\"module_to\":\"mod-a\"}", true));
    rows.add(new Vector("body with content-length", post("2"), "{}", true));
    return rows.stream().map(Arguments::of);
  }

  /** A GET with one field added after the regular ones. */
  private static Vector refused(String name, String field, String value) {
    return new Vector(name, withPath("/public/info?v=%d", field, value), null, false);
  }

  private static Vector passes(String name, String field, String value) {
    return new Vector(name, withPath("/public/info?v=%d", field, value), null, true);
  }

  private static List<String> withPath(String path, String field, String value) {
    var fields = new ArrayList<>(List.of(":method", "GET", ":scheme", "http", ":path", path, ":authority", "localhost",
      "x-okapi-tenant", "alpha"));
    fields.add(field);
    fields.add(value);
    return fields;
  }

  private static List<String> pathOnly(String path) {
    return List.of(":method", "GET", ":scheme", "http", ":path", path, ":authority", "localhost", "x-okapi-tenant",
      "alpha");
  }

  private static List<String> post(@Nullable String contentLength) {
    var fields = new ArrayList<>(List.of(":method", "POST", ":scheme", "http", ":path", "/_/tenant?v=%d",
      ":authority", "localhost", "x-okapi-tenant", "alpha", "content-type", "application/json"));
    if (contentLength != null) {
      fields.add("content-length");
      fields.add(contentLength);
    }
    return fields;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void eachVectorIsRefusedBeforeTheModuleOrForwardedWhole(Vector vector) throws IOException {
    var platform = TestPlatform.get();
    int marker = MARKERS.incrementAndGet();
    var fields = vector.fields().stream().map(field -> field.replace("%d", Integer.toString(marker))).toList();
    var path = fields.get(fields.indexOf(":path") + 1);
    String outcome;
    boolean serves;
    try (var h2 = H2.open(RestAssured.port)) {
      var body = vector.body();
      h2.frame(HEADERS, END_HEADERS | (body == null ? END_STREAM : 0), 1, H2.block(fields.toArray(String[]::new)));
      if (body != null) {
        h2.frame(DATA, END_STREAM, 1, body.getBytes(StandardCharsets.UTF_8));
      }
      h2.flush();
      var answer = h2.answer(1);
      outcome = answer == null
        ? (h2.silent() ? "no answer" : "closed")
        : answer.type() == HEADERS
          ? answer.firstHeaderValue()
          : answer.type() == RST_STREAM
            ? "RST_STREAM " + answer.errorCode(0)
            : "GOAWAY " + answer.errorCode(4);
      serves = !h2.ended() && servesAnother(h2);
    }

    ROWS.incrementAndGet();
    System.out.printf("h2 vector | %-40s | %-14s | connection %s%n", vector.name(), outcome,
      serves ? "serves on" : "ended");
    if (vector.forwarded()) {
      FORWARDED.incrementAndGet();
      assertThat(outcome).as(vector.name()).isEqualTo("200");
      if (vector.body() != null) {
        platform.module().verify(1, postRequestedFor(urlEqualTo(path)).withRequestBody(equalTo(vector.body())));
      } else {
        platform.module().verify(1, anyRequestedFor(urlEqualTo(path)));
      }
    } else {
      REFUSED.incrementAndGet();
      // a body that breaks its content-length is found while it streams: the forward may be under way and then
      // fails (502) as Netty resets the stream; either way the module never gets a whole request
      assertThat(outcome).as(vector.name()).matches("400|502|RST_STREAM \\d+|GOAWAY \\d+|closed");
      platform.module().verify(0, anyRequestedFor(urlEqualTo(path)));
    }
    // a stream refused alone leaves the connection serving; only a connection error (GOAWAY) may end it
    if (!outcome.startsWith("GOAWAY") && !"closed".equals(outcome)) {
      assertThat(serves).as("the connection still serves after " + vector.name()).isTrue();
    }
  }

  /**
   * Issue 43 row 10: {@code CONNECT} (authority-form, no {@code :path}) ended the whole connection with GOAWAY
   * INTERNAL_ERROR from a NullPointerException in Quarkus' root handler. It is refused on its own stream, as
   * HTTP/1.1 refuses it, whether or not the caller has ended the stream, and the connection serves on.
   */
  @ParameterizedTest(name = "end of stream {0}")
  @org.junit.jupiter.params.provider.ValueSource(booleans = {true, false})
  void connectIsRefusedOnItsStreamAndTheConnectionServesOn(boolean endOfStream) throws IOException {
    var platform = TestPlatform.get();
    platform.resetModule();
    try (var h2 = H2.open(RestAssured.port)) {
      h2.frame(HEADERS, END_HEADERS | (endOfStream ? END_STREAM : 0), 1,
        H2.block(":method", "CONNECT", ":authority", "localhost:80", "x-okapi-tenant", "alpha"));
      h2.flush();

      var answer = h2.answer(1);
      assertThat(answer).as("an answer on the CONNECT stream, not the connection's end").isNotNull();
      assertThat(answer.type()).isEqualTo(HEADERS);
      assertThat(answer.firstHeaderValue()).isEqualTo("400");
      assertThat(servesAnother(h2)).as("the connection serves on").isTrue();
    }
    // the readiness probe of the module is the sidecar's own, not the CONNECT's
    platform.module().verify(0, anyRequestedFor(urlMatching("/(?!public/info|admin/health$).*")));
  }

  /** A second, ordinary stream on the same connection is answered 200. */
  private static boolean servesAnother(H2 h2) throws IOException {
    h2.frame(HEADERS, END_HEADERS | END_STREAM, 3, H2.request("GET", "/public/info", ""));
    h2.flush();
    var answer = h2.answer(3);
    return answer != null && answer.type() == HEADERS && "200".equals(answer.firstHeaderValue());
  }

  @Test
  void theAccessLineOfARefusedStreamSaysWhatTheCallerGot() throws IOException {
    try (var capture = LogCapture.install(); var h2 = H2.open(RestAssured.port)) {
      h2.frame(HEADERS, END_HEADERS | END_STREAM, 1,
        H2.block(withPath("/public/info", "x-bad", "a\r\nb").toArray(String[]::new)));
      h2.flush();
      var answer = h2.answer(1);
      assertThat(answer).isNotNull();
      assertThat(answer.type()).isEqualTo(HEADERS);
      assertThat(answer.firstHeaderValue()).isEqualTo("400");
      AccessLines.assertReason(capture, "GET /public/info 400", "x-bad");
    }
  }

  /**
   * Issue 43 row 7: CR LF in an HTTP/2 request id went raw into the logging context before the header rules refused
   * it, and the console line's {@code rid=} forged a line. Every line written for the request, as the plain console
   * format renders it, stays one line.
   */
  @Test
  void aRequestIdWithCrLfForgesNoConsoleLine() throws IOException {
    var forged = "rid-43\r\n2026-11-29 00:00:00,000 ERROR [forged] line";
    var records = new CopyOnWriteArrayList<ExtLogRecord>();
    var handler = new Handler() {
      @Override
      public void publish(LogRecord record) {
        if (record instanceof ExtLogRecord ext) {
          ext.copyMdc();
          records.add(ext);
        }
      }

      @Override
      public void flush() {
      }

      @Override
      public void close() {
      }
    };
    handler.setLevel(Level.ALL);
    Logger.getLogger("").addHandler(handler);
    try (var h2 = H2.open(RestAssured.port)) {
      h2.frame(HEADERS, END_HEADERS | END_STREAM, 1,
        H2.block(withPath("/public/info", "x-okapi-request-id", forged).toArray(String[]::new)));
      h2.flush();
      var answer = h2.answer(1);
      assertThat(answer).isNotNull();
      assertThat(answer.firstHeaderValue()).isEqualTo("400");
      await().atMost(Waits.STATE).until(() -> records.stream().anyMatch(Http2VectorsTest::aboutRid43));
    } finally {
      Logger.getLogger("").removeHandler(handler);
    }
    var console = new ConsoleEscape();
    records.stream().filter(Http2VectorsTest::aboutRid43).forEach(record -> {
      console.isLoggable(record);
      var line = "rid=" + record.getMdc("requestId") + " trace=" + record.getMdc("traceId") + " "
        + record.getFormattedMessage();
      assertThat(line).as("a console line").doesNotContain("\r", "\n").contains("rid=rid-43\\r\\n2026");
    });
  }

  /**
   * Issue 43 row 10: an absolute-form {@code :path} is refused as HTTP/1.1's absolute-form target is (400), on its
   * stream only: the connection serves on.
   */
  @Test
  void anAbsoluteFormPathIsRefusedOnItsStreamOnly() throws IOException {
    var platform = TestPlatform.get();
    try (var h2 = H2.open(RestAssured.port)) {
      h2.frame(HEADERS, END_HEADERS | END_STREAM, 1,
        H2.block(pathOnly("http://evil.example/public/info?v=absolute").toArray(String[]::new)));
      h2.flush();
      var answer = h2.answer(1);
      assertThat(answer).isNotNull();
      assertThat(answer.type()).isEqualTo(HEADERS);
      assertThat(answer.firstHeaderValue()).isEqualTo("400");
      assertThat(servesAnother(h2)).isTrue();
    }
    platform.module().verify(0, anyRequestedFor(urlMatching(".*absolute.*")));
  }

  /** A line written for the forged request id's request. */
  private static boolean aboutRid43(ExtLogRecord record) {
    var rid = record.getMdc("requestId");
    return rid != null && rid.startsWith("rid-43");
  }

  @AfterAll
  static void totals() {
    System.out.printf("h2 vector table: %d rows, %d refused, %d forwarded%n", ROWS.get(), REFUSED.get(),
      FORWARDED.get());
  }
}
