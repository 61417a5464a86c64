package org.folio.sidecar.forward;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.folio.sidecar.support.PackagedSidecar;
import org.junit.jupiter.api.Test;

/**
 * The packaged sidecar stopped as Kubernetes stops it (SIGTERM) right after serving: the access lines of the
 * last requests are in its output, before the "stopped" line.
 */
class ShutdownAccessLinesIT {

  private static final int REQUESTS = 200;

  @Test
  void theLastAccessLinesSurviveAStop() throws Exception {
    var module = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    module.createContext("/", exchange -> {
      exchange.sendResponseHeaders(200, 2);
      exchange.getResponseBody().write("{}".getBytes());
      exchange.close();
    });
    module.start();
    try (var sidecar = PackagedSidecar.standalone(module.getAddress().getPort(), Map.of())) {
      var client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      int port = sidecar.port();
      var process = sidecar.process();
      for (int i = 0; i < REQUESTS; i++) {
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/public/info"))
          .header("x-okapi-tenant", "diku").header("x-okapi-request-id", "last" + i).build();
        assertThat(client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(200);
      }
      process.destroy();
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

      var lines = sidecar.lines();
      // upstream's default format: "<ip> - <host> - - [<time>] "GET /public/info HTTP/1.1" 200 ... "<request id>"
      for (int i = 0; i < REQUESTS; i++) {
        var id = "\"last" + i + ";";
        assertThat(lines).as("access line of request %d", i)
          .anyMatch(line -> line.contains("\"GET /public/info HTTP/1.1\" 200 ") && line.contains(id));
      }
      int lastAccess = 0;
      int stopped = -1;
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).contains("\"GET /public/info HTTP/1.1\"")) {
          lastAccess = i;
        }
        if (lines.get(i).contains(" stopped in ")) {
          stopped = i;
        }
      }
      assertThat(stopped).as("the 'stopped' line comes after every access line").isGreaterThan(lastAccess);
    } finally {
      module.stop(0);
    }
  }
}
