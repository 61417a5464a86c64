package org.folio.sidecar.testkit;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The packaged sidecar as its own process, configured for the test platform only through upstream's environment
 * variables, on free loopback ports: what the demo runs and what ops/ scrapes. {@code DEMO_SIDECAR_COMMAND}
 * runs it another way (image/smoke.sh: from its container image; ops/pod-smoke.sh: as the manifests' pod) with
 * the same environment.
 */
public final class SidecarProcess implements AutoCloseable {

  private final Process process;
  private final int port;
  private final int managementPort;

  private SidecarProcess(Process process, int port, int managementPort) {
    this.process = process;
    this.port = port;
    this.managementPort = managementPort;
  }

  public static SidecarProcess start(TestPlatform platform) throws IOException {
    return start(platform, ProcessBuilder.Redirect.INHERIT);
  }

  /** As {@link #start(TestPlatform)}, its log (standard output and error) sent to {@code log}. */
  public static SidecarProcess start(TestPlatform platform, ProcessBuilder.Redirect log) throws IOException {
    return start(platform, log, Map.of());
  }

  /**
   * As {@link #start(TestPlatform, ProcessBuilder.Redirect)}, with more variables (JVM options, limits) on top of
   * the platform's: a DEMO_SIDECAR_COMMAND with {@code podman run --env-host} hands them to the container.
   */
  public static SidecarProcess start(TestPlatform platform, ProcessBuilder.Redirect log, Map<String, String> variables)
    throws IOException {
    var command = Optional.ofNullable(System.getenv("DEMO_SIDECAR_COMMAND")).filter(c -> !c.isBlank())
      .map(c -> List.of(c.trim().split("\\s+")))
      .orElse(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
        "sidecar/target/quarkus-app/quarkus-run.jar"));
    return start(platform, log, variables, command);
  }

  /**
   * As {@link #start(TestPlatform, ProcessBuilder.Redirect, Map)}, run by {@code command} (a harness comparing
   * two builds or JVM option sets: load/idle.sh).
   */
  public static SidecarProcess start(TestPlatform platform, ProcessBuilder.Redirect log, Map<String, String> variables,
    List<String> command) throws IOException {
    var config = platform.sidecarConfig();
    int port = FreePorts.next();
    int managementPort = FreePorts.next();
    var builder = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.INHERIT)
      .redirectErrorStream(true).redirectOutput(log);
    var env = builder.environment();
    env.put("QUARKUS_HTTP_PORT", String.valueOf(port));
    env.put("QUARKUS_MANAGEMENT_PORT", String.valueOf(managementPort));
    env.put("KC_URL", config.get("kc.url"));
    env.put("MODULE_URL", config.get("module.url"));
    env.put("MODULE_NAME", TestModule.NAME);
    env.put("MODULE_VERSION", TestModule.VERSION);
    env.put("MODULE_DESCRIPTOR_PATH", config.get("module.descriptor-path"));
    env.put("SIDECAR_URL", "http://127.0.0.1:" + port);
    env.put("TE_CLIENT_URL", config.get("tenant.entitlements-url"));
    env.put("TM_CLIENT_URL", config.get("tenant.tenants-url"));
    env.put("KAFKA_HOST", config.get("events.kafka-host"));
    env.put("KAFKA_PORT", config.get("events.kafka-port"));
    env.put("SECRET_STORE_TYPE", "EPHEMERAL");
    env.put("SECRET_STORE_EPHEMERAL_CONTENT_FOLIO_MASTER_FOLIO_BACKEND_ADMIN_CLIENT",
      config.get("secret-store.ephemeral.content.folio_master_folio-backend-admin-client"));
    env.put("SECRET_STORE_EPHEMERAL_CONTENT_FOLIO_ALPHA_SIDECAR_MODULE_ACCESS_CLIENT", TestTenant.SERVICE_SECRET);
    env.put("SECRET_STORE_EPHEMERAL_CONTENT_FOLIO_BETA_SIDECAR_MODULE_ACCESS_CLIENT", TestTenant.SERVICE_SECRET);
    // the admin API's credential (docs/admin-api.md): ops/fleet-flush.sh and the demo's operators use it
    env.put("SECRET_STORE_EPHEMERAL_CONTENT_FOLIO_SIDECAR_ADMIN", TestPlatform.ADMIN_TOKEN);
    env.putAll(variables);
    var sidecar = new SidecarProcess(builder.start(), port, managementPort);
    Runtime.getRuntime().addShutdownHook(new Thread(sidecar.process::destroy));
    return sidecar;
  }

  /** The process the command started (a container runtime's, when DEMO_SIDECAR_COMMAND runs one). */
  public ProcessHandle process() {
    return process.toHandle();
  }

  /** Where callers (and, on loopback, the module) reach it. */
  public String baseUrl() {
    return "http://127.0.0.1:" + port;
  }

  /** Its management interface: {@code /q/metrics}. */
  public String managementUrl() {
    return "http://127.0.0.1:" + managementPort;
  }

  /** How long a start may take on a machine however busy: a bound on waiting for a state, not a latency. */
  private static final Duration START_BOUND = Duration.ofMinutes(5);

  public void awaitLive() throws InterruptedException {
    await("/admin/health/live", status -> {
    });
  }

  /**
   * Waits until it is ready (routes and entitlements loaded, the state its first request needs), telling
   * {@code progress} every 10 s what it is still waiting for.
   */
  public void awaitReady(Consumer<String> progress) throws InterruptedException {
    await("/admin/health/ready", progress);
  }

  private void await(String path, Consumer<String> progress) throws InterruptedException {
    var http = HttpClient.newHttpClient();
    long started = System.nanoTime();
    long told = started;
    var last = "no answer yet";
    while (System.nanoTime() - started < START_BOUND.toNanos()) {
      if (!process.isAlive()) {
        throw new IllegalStateException("the sidecar exited with " + process.exitValue());
      }
      try {
        var request = HttpRequest.newBuilder(URI.create(baseUrl() + path)).build();
        var response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 200) {
          return;
        }
        last = response.statusCode() + " " + response.body();
      } catch (IOException e) {
        last = "not listening yet";
      }
      if (System.nanoTime() - told >= Duration.ofSeconds(10).toNanos()) {
        told = System.nanoTime();
        progress.accept(path + " after " + Duration.ofNanos(told - started).toSeconds() + " s: " + last);
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("the sidecar did not answer 200 on " + path + " within " + START_BOUND + ": "
      + last);
  }

  /** Returns when it has ended. */
  public void waitFor() throws InterruptedException {
    process.waitFor();
  }

  /** Stops it and waits for it to be gone. */
  @Override
  public void close() throws InterruptedException {
    process.destroy();
    process.waitFor(15, TimeUnit.SECONDS);
  }
}
