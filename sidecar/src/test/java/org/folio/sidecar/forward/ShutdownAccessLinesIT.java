package org.folio.sidecar.forward;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.folio.sidecar.testkit.FreePorts;
import org.folio.sidecar.testkit.TestModule;
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
    var descriptor = Files.createTempFile("descriptor", ".json");
    Files.writeString(descriptor, TestModule.descriptor().encode());
    var output = Files.createTempFile("sidecar-stop", ".log");
    int port = FreePorts.next();
    var nobody = "http://127.0.0.1:9";
    var builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
      "-jar", "target/quarkus-app/quarkus-run.jar").redirectErrorStream(true).redirectOutput(output.toFile());
    builder.environment().putAll(Map.of("QUARKUS_HTTP_PORT", String.valueOf(port), "MODULE_NAME", TestModule.NAME,
      "MODULE_VERSION", TestModule.VERSION, "MODULE_URL", "http://127.0.0.1:" + module.getAddress().getPort(),
      "SIDECAR_URL", "http://127.0.0.1:" + port, "KC_URL", nobody, "MODULE_DESCRIPTOR_PATH", descriptor.toString(),
      "SIDECAR_TENANT_ENTITLEMENT_CHECK", "false", "SECRET_STORE_TYPE", "EPHEMERAL"));
    builder.environment().put("QUARKUS_MANAGEMENT_PORT", String.valueOf(FreePorts.next()));
    var process = builder.start();
    try {
      var client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      var ready = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/admin/health/live")).build();
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (true) {
        try {
          if (client.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
            break;
          }
        } catch (java.io.IOException notYet) {
          assertThat(System.nanoTime()).as("started within 60 s").isLessThan(deadline);
          process.waitFor(200, TimeUnit.MILLISECONDS);
        }
      }
      for (int i = 0; i < REQUESTS; i++) {
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/public/info"))
          .header("x-okapi-tenant", "diku").header("x-okapi-request-id", "last" + i).build();
        assertThat(client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(200);
      }
      process.destroy();
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

      var lines = Files.readAllLines(output);
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
      process.destroyForcibly();
      module.stop(0);
      Files.deleteIfExists(descriptor);
      Files.deleteIfExists(output);
    }
  }
}
