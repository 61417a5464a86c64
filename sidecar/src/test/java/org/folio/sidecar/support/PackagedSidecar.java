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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.folio.sidecar.testkit.FreePorts;
import org.folio.sidecar.testkit.TestModule;

/**
 * The packaged sidecar ({@code target/quarkus-app}) started as its image starts it: {@code java $JAVA_OPTS -jar},
 * with an environment given whole, as a Kubernetes pod gives it. Its output goes to a file the test can read.
 */
public final class PackagedSidecar implements AutoCloseable {

  /** folio-helm-v2's sidecar environment, the one file the tests, docs/operations.md and k8s/ share. */
  public static final Path CHART_ENVIRONMENT = Path.of("..", "k8s", "folio-helm-v2-sidecar.env");

  private final Process process;
  private final Path output;
  private final int port;
  private final int managementPort;
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
    .connectTimeout(Duration.ofSeconds(5)).build();

  private PackagedSidecar(Process process, Path output, int port, int managementPort) {
    this.process = process;
    this.output = output;
    this.port = port;
    this.managementPort = managementPort;
  }

  /** What folio-helm-v2's open PR #239 adds to or changes in {@link #CHART_ENVIRONMENT}. */
  public static final Path PR_239_ENVIRONMENT = Path.of("..", "k8s", "folio-helm-v2-pr239-sidecar.env");

  /** The chart's variables, in the file's order: {@code NAME=value} lines, the value taken literally. */
  public static Map<String, String> chartEnvironment() throws IOException {
    return readEnvironment(CHART_ENVIRONMENT);
  }

  /** The chart's variables with PR #239's over them. */
  public static Map<String, String> chartEnvironmentWithPr239() throws IOException {
    var environment = chartEnvironment();
    environment.putAll(readEnvironment(PR_239_ENVIRONMENT));
    return environment;
  }

  private static Map<String, String> readEnvironment(Path file) throws IOException {
    var environment = new LinkedHashMap<String, String>();
    for (var line : Files.readAllLines(file)) {
      if (!line.isBlank() && !line.startsWith("#")) {
        int equals = line.indexOf('=');
        environment.put(line.substring(0, equals), line.substring(equals + 1));
      }
    }
    return environment;
  }

  /**
   * Starts the jar with exactly {@code environment} (plus PATH and HOME) on {@code port}, splitting JAVA_OPTS on
   * white space as the image's {@code sh -c "java $JAVA_OPTS ..."} does, and waits until it is live.
   */
  public static PackagedSidecar start(Map<String, String> environment, int port) throws Exception {
    var output = Files.createTempFile("packaged-sidecar", ".log");
    var command = new ArrayList<String>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    var javaOpts = environment.getOrDefault("JAVA_OPTS", "").trim();
    if (!javaOpts.isEmpty()) {
      command.addAll(List.of(javaOpts.split("\\s+")));
    }
    command.addAll(List.of("-jar", "target/quarkus-app/quarkus-run.jar"));
    var builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
    var env = builder.environment();
    var path = env.get("PATH");
    var home = env.get("HOME");
    env.clear();
    env.put("PATH", path == null ? "/usr/bin:/bin" : path);
    env.put("HOME", home == null ? "/tmp" : home);
    env.putAll(environment);
    int managementPort = FreePorts.next();
    env.put("QUARKUS_MANAGEMENT_PORT", String.valueOf(managementPort));
    var sidecar = new PackagedSidecar(builder.start(), output, port, managementPort);
    sidecar.awaitLive();
    return sidecar;
  }

  /**
   * Started on its own: routing by the test module's descriptor to a module on {@code modulePort}, with no
   * Keycloak, entitlement check or Kafka, plus {@code extra} variables.
   */
  public static PackagedSidecar standalone(int modulePort, Map<String, String> extra) throws Exception {
    var descriptor = Files.createTempFile("descriptor", ".json");
    descriptor.toFile().deleteOnExit();
    Files.writeString(descriptor, TestModule.descriptor().encode());
    int port = FreePorts.next();
    var environment = new HashMap<>(Map.of("QUARKUS_HTTP_PORT", String.valueOf(port), "MODULE_NAME",
      TestModule.NAME, "MODULE_VERSION", TestModule.VERSION, "MODULE_URL", "http://127.0.0.1:" + modulePort,
      "SIDECAR_URL", "http://127.0.0.1:" + port, "KC_URL", "http://127.0.0.1:9", "MODULE_DESCRIPTOR_PATH",
      descriptor.toString(), "SIDECAR_TENANT_ENTITLEMENT_CHECK", "false", "SECRET_STORE_TYPE", "EPHEMERAL"));
    environment.putAll(extra);
    return start(environment, port);
  }

  private void awaitLive() throws Exception {
    var live = HttpRequest.newBuilder(URI.create(url("/admin/health/live"))).timeout(Duration.ofSeconds(5)).build();
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (true) {
      assertThat(process.isAlive()).as("sidecar running; its output:%n%s", output()).isTrue();
      try {
        if (http.send(live, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      assertThat(System.nanoTime()).as("live within 90 s; output:%n%s", output()).isLessThan(deadline);
      process.waitFor(250, TimeUnit.MILLISECONDS);
    }
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

  public String url(String path) {
    return "http://localhost:" + port + path;
  }

  public HttpClient http() {
    return http;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** The Prometheus text of the management interface. */
  public String metrics() throws Exception {
    var request = HttpRequest.newBuilder(URI.create("http://localhost:" + managementPort + "/q/metrics")).build();
    return http.send(request, HttpResponse.BodyHandlers.ofString()).body();
  }

  /** The first sample of {@code metric} whose labels contain {@code labels}, or -1. */
  public static double sample(String metrics, String metric, String labels) {
    for (var line : metrics.split("\n")) {
      if (line.startsWith(metric + "{") && line.contains(labels) || line.startsWith(metric + " ") && labels.isEmpty()) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return -1;
  }

  /** Resident set size in KiB, from {@code /proc}. */
  public long rssKib() throws IOException {
    for (var line : Files.readAllLines(Path.of("/proc", String.valueOf(process.pid()), "status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("\\D", ""));
      }
    }
    return -1;
  }

  public String output() throws IOException {
    return Files.readString(output);
  }

  @Override
  public void close() throws Exception {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
    Files.deleteIfExists(output);
  }
}
