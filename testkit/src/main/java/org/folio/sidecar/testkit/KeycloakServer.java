package org.folio.sidecar.testkit;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The real Keycloak distribution (unpacked by the build under target/keycloak), started once per test JVM
 * as a child process on free loopback ports, behind a {@link CountingHop}. Its hostname is pinned to the hop,
 * so every token's issuer is the URL the sidecar is configured with, whichever port a test fetched it from.
 */
public final class KeycloakServer {

  private static final Logger LOGGER = Logger.getLogger(KeycloakServer.class);
  /**
   * A bound on waiting for readiness, not a start-up time: on the shared 2-core machine with other builds running
   * (load average above 30) one start spent 135 s on Quarkus' augmentation alone and was not ready after 4 minutes.
   */
  private static final Duration START_TIMEOUT = Duration.ofMinutes(10);
  private static KeycloakServer instance;

  private final Process process;
  private final int port;
  private final CountingHop hop;
  private final KeycloakAdmin admin;

  private KeycloakServer(Process process, int port, CountingHop hop) {
    this.process = process;
    this.port = port;
    this.hop = hop;
    this.admin = new KeycloakAdmin("http://127.0.0.1:" + port);
  }

  public static synchronized KeycloakServer get() {
    if (instance == null) {
      instance = start();
      Runtime.getRuntime().addShutdownHook(new Thread(instance::stop, "keycloak-stop"));
    }
    return instance;
  }

  /** Keycloak's own address, for test set-up (tokens, admin calls); the sidecar talks through {@link #hop()}. */
  public KeycloakAdmin admin() {
    return admin;
  }

  public CountingHop hop() {
    return hop;
  }

  /** The server's process (kc.sh and the JVM it starts), for measuring what Keycloak costs. */
  public ProcessHandle process() {
    return process.toHandle();
  }

  private static KeycloakServer start() {
    // the build unpacks the distribution under testkit/target/keycloak and names it in this property
    var home = Path.of(System.getProperty("keycloak.home", "keycloak.home-not-set")).toAbsolutePath();
    if (!Files.isExecutable(home.resolve("bin/kc.sh"))) {
      throw new IllegalStateException("No Keycloak distribution at " + home
        + ": run through ./mvnw or scripts/run-main.sh, which set -Dkeycloak.home");
    }
    int port = FreePorts.next();
    int managementPort = FreePorts.next();
    var hop = new CountingHop(FreePorts.next(), port);
    hop.start();
    var log = home.getParent().resolve("keycloak.log");
    var builder = new ProcessBuilder(List.of(home.resolve("bin/kc.sh").toString(), "start-dev",
      "--http-host=127.0.0.1", "--http-port=" + port, "--http-management-port=" + managementPort,
      "--health-enabled=true", "--hostname=" + hop.url(),
      // nothing outlives a run, and realm creation is the slowest part of provisioning: skip the file database
      "--db=dev-mem",
      // FOLIO's Keycloak image enables these for cross-tenant impersonation (token exchange)
      "--features=token-exchange:v1,admin-fine-grained-authz:v1"))
      .directory(home.toFile())
      .redirectErrorStream(true)
      .redirectOutput(log.toFile());
    var env = builder.environment();
    env.put("KC_BOOTSTRAP_ADMIN_USERNAME", "admin");
    env.put("KC_BOOTSTRAP_ADMIN_PASSWORD", "admin");
    env.put("JAVA_HOME", System.getProperty("java.home"));
    // the in-memory database lives in this heap too
    env.put("JAVA_OPTS_KC_HEAP", "-Xms64m -Xmx768m");
    long started = System.nanoTime();
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new IllegalStateException("Cannot start Keycloak", e);
    }
    var server = new KeycloakServer(process, port, hop);
    server.awaitReady(managementPort, log);
    LOGGER.infof("Keycloak ready on 127.0.0.1:%d in %d ms", port, (System.nanoTime() - started) / 1_000_000);
    return server;
  }

  private void awaitReady(int managementPort, Path log) {
    var http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    var probe = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/health/ready"))
      .timeout(Duration.ofSeconds(2)).build();
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("Keycloak exited with " + process.exitValue() + "; see " + log);
      }
      try {
        if (http.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      sleep(250);
    }
    stop();
    throw new IllegalStateException("Keycloak not ready after " + START_TIMEOUT + "; see " + log);
  }

  private void stop() {
    process.destroy();
    try {
      if (!process.waitFor(15, TimeUnit.SECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    hop.cut();
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
