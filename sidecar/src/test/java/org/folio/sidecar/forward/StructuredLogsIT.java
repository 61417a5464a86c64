package org.folio.sidecar.forward;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.vertx.core.json.JsonObject;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.folio.sidecar.support.PackagedSidecar;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The packaged sidecar's console as a log pipeline reads it: with QUARKUS_LOG_CONSOLE_JSON_ENABLED=true (the name
 * the docs give; upstream's QUARKUS_LOG_CONSOLE_JSON makes Quarkus warn it is deprecated) every line is one JSON
 * object, none a deprecation warning, and the lines of a request (its access line, the WARN line of a refusal) carry its request id and
 * trace id; in the default plain text the same ids are in the WARN line's prefix.
 */
class StructuredLogsIT {

  private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String TRACEPARENT = "00-" + TRACE_ID + "-00f067aa0ba902b7-01";
  private static final String ROUTER = "org.folio.sidecar.SidecarRouter";

  private HttpServer module;

  @BeforeEach
  void startModule() throws Exception {
    module = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    module.createContext("/", exchange -> {
      exchange.sendResponseHeaders(200, 2);
      exchange.getResponseBody().write("{}".getBytes());
      exchange.close();
    });
    module.start();
  }

  @AfterEach
  void stopModule() {
    module.stop(0);
  }

  @Test
  void jsonLinesCarryTheRequestAndTraceIds() throws Exception {
    List<String> lines;
    try (var sidecar = PackagedSidecar.standalone(module.getAddress().getPort(),
      Map.of("QUARKUS_LOG_CONSOLE_JSON_ENABLED", "true"))) {
      send(sidecar, "/public/info", "json-ok", 200);
      send(sidecar, "/nowhere", "json-refused", 404);
      lines = stopAndRead(sidecar);
    }

    var objects = new ArrayList<JsonObject>();
    for (var line : lines) {
      // a line that is not one JSON object throws here, naming it
      objects.add(new JsonObject(line));
    }
    assertThat(objects).anyMatch(o -> o.getString("message", "").contains(" started in "));
    assertThat(objects).noneMatch(o -> o.getString("message", "").contains("deprecated"));
    var access = requestLine(objects, "transaction", "\"GET /public/info HTTP/1.1\" 200 ");
    assertThat(access.getString("level")).isEqualTo("INFO");
    assertThat(access.getJsonObject("mdc").getString("requestId")).startsWith("json-ok;").endsWith("/public");
    assertThat(access.getJsonObject("mdc").getString("traceId")).isEqualTo(TRACE_ID);
    var warning = requestLine(objects, ROUTER, "Sending error response for");
    assertThat(warning.getString("level")).isEqualTo("WARN");
    assertThat(warning.getJsonObject("mdc").getString("requestId")).startsWith("json-refused;");
    assertThat(warning.getJsonObject("mdc").getString("traceId")).isEqualTo(TRACE_ID);
  }

  @Test
  void plainLinesNameTheRequestAndTraceIdsInTheirPrefix() throws Exception {
    List<String> lines;
    try (var sidecar = PackagedSidecar.standalone(module.getAddress().getPort(), Map.of())) {
      send(sidecar, "/nowhere", "plain-refused", 404);
      lines = stopAndRead(sidecar);
    }

    assertThat(lines).anyMatch(line -> line.contains(" WARN ") && line.contains("Sending error response for")
      && line.matches(".* rid=plain-refused;\\d{6}/nowhere trace=" + TRACE_ID + " Sending error response .*"));
    // upstream's access line keeps upstream's format
    assertThat(lines).anyMatch(line -> line.contains("\"GET /nowhere HTTP/1.1\" 404 ")
      && line.contains("\"plain-refused;"));
  }

  private static void send(PackagedSidecar sidecar, String path, String requestId, int status) throws Exception {
    var request = HttpRequest.newBuilder(URI.create(sidecar.url(path))).header("x-okapi-tenant", "diku")
      .header("x-okapi-request-id", requestId).header("traceparent", TRACEPARENT).build();
    assertThat(sidecar.http().send(request, HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(status);
  }

  /** Stops the sidecar as Kubernetes does, so its writer has written every access line, and reads its output. */
  private static List<String> stopAndRead(PackagedSidecar sidecar) throws Exception {
    sidecar.process().destroy();
    assertThat(sidecar.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
    return sidecar.lines();
  }

  private static JsonObject requestLine(List<JsonObject> objects, String logger, String text) {
    return objects.stream()
      .filter(o -> logger.equals(o.getString("loggerName")) && o.getString("message", "").contains(text))
      .findFirst().orElseThrow(() -> new AssertionError("no " + logger + " line with " + text + " in " + objects));
  }
}
