package org.folio.sidecar.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.folio.sidecar.testkit.FreePorts;
import org.folio.sidecar.testkit.TestModule;

/**
 * The packaged sidecar ({@code target/quarkus-app}) as its own process, routing by the test module's descriptor
 * to a module on {@code modulePort}, with no Keycloak, entitlement check or Kafka; its output goes to a file.
 */
public final class StandaloneSidecar implements AutoCloseable {

  private final Path descriptor;
  private final Path output;
  private final int port;
  private final Process process;

  private StandaloneSidecar(Path descriptor, Path output, int port, Process process) {
    this.descriptor = descriptor;
    this.output = output;
    this.port = port;
    this.process = process;
  }

  /** Starts it with {@code extra} variables and waits until it is live (at most 60 s). */
  public static StandaloneSidecar start(int modulePort, Map<String, String> extra) throws Exception {
    var descriptor = Files.createTempFile("descriptor", ".json");
    Files.writeString(descriptor, TestModule.descriptor().encode());
    var output = Files.createTempFile("sidecar-stop", ".log");
    int port = FreePorts.next();
    var builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
      "-jar", "target/quarkus-app/quarkus-run.jar").redirectErrorStream(true).redirectOutput(output.toFile());
    var environment = new HashMap<>(Map.of("QUARKUS_HTTP_PORT", String.valueOf(port), "MODULE_NAME",
      TestModule.NAME, "MODULE_VERSION", TestModule.VERSION, "MODULE_URL", "http://127.0.0.1:" + modulePort,
      "SIDECAR_URL", "http://127.0.0.1:" + port, "KC_URL", "http://127.0.0.1:9", "MODULE_DESCRIPTOR_PATH",
      descriptor.toString(), "SIDECAR_TENANT_ENTITLEMENT_CHECK", "false", "SECRET_STORE_TYPE", "EPHEMERAL"));
    environment.put("QUARKUS_MANAGEMENT_PORT", String.valueOf(FreePorts.next()));
    environment.putAll(extra);
    builder.environment().putAll(environment);
    var sidecar = new StandaloneSidecar(descriptor, output, port, builder.start());
    sidecar.awaitLive();
    return sidecar;
  }

  public int port() {
    return port;
  }

  public Process process() {
    return process;
  }

  /** Everything it wrote so far. */
  public List<String> lines() throws IOException {
    return Files.readAllLines(output);
  }

  private void awaitLive() throws InterruptedException, IOException {
    var client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    var live = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/admin/health/live")).build();
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      try {
        if (client.send(live, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        assertThat(System.nanoTime()).as("started within 60 s").isLessThan(deadline);
        process.waitFor(200, TimeUnit.MILLISECONDS);
      }
    }
  }

  @Override
  public void close() throws IOException {
    process.destroyForcibly();
    Files.deleteIfExists(descriptor);
    Files.deleteIfExists(output);
  }
}
