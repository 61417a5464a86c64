package org.folio.sidecar.load.fleet;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.folio.sidecar.testkit.FreePorts;
import org.folio.sidecar.testkit.TestModule;

/**
 * One packaged sidecar (a {@code quarkus-run.jar}) in front of {@link TestModule} on a loopback port, Keycloak at
 * {@code keycloakUrl} (the harnesses' granting stub), no entitlement check and an ephemeral secret store: the
 * set-up of the harnesses that measure one sidecar process rather than a fleet. Ready once its health says so.
 */
public record PackagedSidecar(Process process, int port, int managementPort) implements AutoCloseable {

  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  /** Starts the jar with {@code jvmOptions} and {@code env} on top of the defaults, its console in {@code log}. */
  public static PackagedSidecar start(Path jar, List<String> jvmOptions, Map<String, String> env, String keycloakUrl,
    int modulePort, Path descriptor, Path log) throws Exception {
    var command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(jvmOptions);
    command.addAll(List.of("-jar", jar.toString()));
    var builder = new ProcessBuilder(command).redirectErrorStream(true);
    int port = FreePorts.next();
    int managementPort = FreePorts.next();
    var environment = builder.environment();
    environment.put("QUARKUS_HTTP_PORT", String.valueOf(port));
    environment.put("QUARKUS_MANAGEMENT_PORT", String.valueOf(managementPort));
    environment.put("MODULE_NAME", TestModule.NAME);
    environment.put("MODULE_VERSION", TestModule.VERSION);
    environment.put("MODULE_URL", "http://127.0.0.1:" + modulePort);
    environment.put("SIDECAR_URL", "http://127.0.0.1:" + port);
    environment.put("KC_URL", keycloakUrl);
    environment.put("MODULE_DESCRIPTOR_PATH", descriptor.toString());
    environment.put("SIDECAR_TENANT_ENTITLEMENT_CHECK", "false");
    environment.put("SECRET_STORE_TYPE", "EPHEMERAL");
    environment.putAll(env);
    var process = builder.start();
    SidecarFleet.copyConsole(process, log);
    var sidecar = new PackagedSidecar(process, port, managementPort);
    try {
      sidecar.awaitReady(log.getFileName().toString());
    } catch (Exception e) {
      sidecar.close();
      throw e;
    }
    return sidecar;
  }

  public String url() {
    return "http://127.0.0.1:" + port;
  }

  public ProcessHandle handle() {
    return process.toHandle();
  }

  private void awaitReady(String label) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(240).toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IOException("the sidecar of " + label + " exited with " + process.exitValue());
      }
      try {
        if (HTTP.send(HttpRequest.newBuilder(URI.create(url() + "/admin/health/ready")).build(),
          HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(200);
    }
    throw new IOException("the sidecar of " + label + " not ready after 240 s");
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(15, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
