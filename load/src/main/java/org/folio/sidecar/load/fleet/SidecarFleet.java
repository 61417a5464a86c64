package org.folio.sidecar.load.fleet;

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
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * One sidecar process per module, all started from the same command and configured only through upstream's
 * environment variables (plus this sidecar's own, which another build ignores), so the baseline can be any
 * sidecar build. Each process logs to its own file.
 */
public final class SidecarFleet implements AutoCloseable {

  /** How every sidecar of a fleet reaches the platform. */
  public record Platform(String keycloakUrl, String managersUrl, List<String> tenants, String adminSecret,
    String serviceSecret) {
  }

  private static final Pattern STARTED = Pattern.compile(
    "(\\S+) (\\S+) on JVM \\(powered by Quarkus ([^)]+)\\) started in ([\\d.]+)s");
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final Map<String, Process> processes = new HashMap<>();
  private final Map<String, ProcessBuilder> builders = new HashMap<>();
  private final Map<String, Integer> ports;
  private final Map<String, Integer> managementPorts = new HashMap<>();
  private final Path logDir;
  /** The decision-cache hits and misses of processes stopped by {@link #restartAll}, counted into the fleet's. */
  private final long[] retiredCache = new long[2];
  private boolean retiredCounted;

  private SidecarFleet(Map<String, Integer> ports, Path logDir) {
    this.ports = ports;
    this.logDir = logDir;
  }

  /**
   * Starts the fleet and waits until every sidecar is ready. {@code modulePorts} and {@code sidecarPorts} are by
   * module name; {@code perModule} adds variables for one module (its route overrides).
   */
  public static SidecarFleet start(List<String> command, Map<String, String> variantEnv, Platform platform,
    Map<String, Integer> modulePorts, Map<String, Integer> sidecarPorts,
    Map<String, Map<String, String>> perModule, Path logDir) throws IOException {
    Files.createDirectories(logDir);
    var fleet = new SidecarFleet(sidecarPorts, logDir);
    try {
      // the modules given a sidecar port: all six in the A/B run, one in the profile
      for (var module : CirculationModules.ALL.stream().filter(m -> sidecarPorts.containsKey(m.name())).toList()) {
        int port = sidecarPorts.get(module.name());
        var builder = new ProcessBuilder(command).redirectErrorStream(true);
        var env = builder.environment();
        env.put("QUARKUS_HTTP_PORT", String.valueOf(port));
        // metrics are on the management interface: each sidecar of the one machine needs a port of its own
        int managementPort = org.folio.sidecar.testkit.FreePorts.next();
        fleet.managementPorts.put(module.name(), managementPort);
        env.put("QUARKUS_MANAGEMENT_PORT", String.valueOf(managementPort));
        env.put("MODULE_NAME", module.name());
        env.put("MODULE_VERSION", module.version());
        env.put("MODULE_URL", "http://127.0.0.1:" + modulePorts.get(module.name()));
        env.put("SIDECAR_URL", "http://127.0.0.1:" + port);
        env.put("KC_URL", platform.keycloakUrl());
        env.put("AM_CLIENT_URL", platform.managersUrl());
        env.put("TE_CLIENT_URL", platform.managersUrl());
        env.put("TM_CLIENT_URL", platform.managersUrl());
        env.put("MOD_USERS_KEYCLOAK_URL", platform.managersUrl());
        env.put("SECRET_STORE_TYPE", "EPHEMERAL");
        // AddedTime reads the compact line's milliseconds
        env.put("SC_ACCESS_LOG_FORMAT", "compact");
        // the hit path and the closed loop send as one user over up to 256 connections: they measure the hop, so
        // the per-caller cap (100 by default) is raised past them; a build without the cap ignores the variable
        env.put("SIDECAR_FORWARD_MAX_CONNECTIONS_PER_CALLER", "10000");
        env.put("SECRET_STORE_EPHEMERAL_CONTENT_FOLIO_MASTER_FOLIO_BACKEND_ADMIN_CLIENT", platform.adminSecret());
        for (var tenant : platform.tenants()) {
          env.put("SECRET_STORE_EPHEMERAL_CONTENT_FOLIO_" + tenant.toUpperCase(Locale.ROOT)
            + "_SIDECAR_MODULE_ACCESS_CLIENT", platform.serviceSecret());
        }
        env.putAll(variantEnv);
        env.putAll(perModule.getOrDefault(module.name(), Map.of()));
        var process = builder.start();
        fleet.builders.put(module.name(), builder);
        fleet.processes.put(module.name(), process);
        copyConsole(process, fleet.log(module.name()));
      }
      // generous: on the shared 2-core machine at a load average of 30 a start took over 90 s
      fleet.awaitReady(Duration.ofSeconds(240));
      return fleet;
    } catch (IOException | RuntimeException e) {
      fleet.close();
      throw e;
    }
  }

  /**
   * The sidecar's console goes into a pipe that a thread of ours copies to its log file, as a container runtime
   * does with a pod's stdout. Were the file the process's stdout, a disk stall (a journal commit) would block the
   * sidecar's event loop in the middle of a write, which no sidecar in a pod sees.
   */
  static void copyConsole(Process process, Path log) {
    Thread.ofPlatform().daemon().name("console-" + log.getFileName()).start(() -> {
      try (var in = process.getInputStream(); var out = Files.newOutputStream(log)) {
        in.transferTo(out);
      } catch (IOException e) {
        // the process is gone or the run is ending; the log has what was read
      }
    });
  }

  /** Sends the module's sidecar SIGTERM, as Kubernetes does to a pod it stops, and returns its process. */
  public Process stop(String moduleName) {
    var process = processes.get(moduleName);
    process.destroy();
    return process;
  }

  public boolean alive(String moduleName) {
    return processes.get(moduleName).isAlive();
  }

  /**
   * Starts the module's sidecar again with the same command and variables, as Kubernetes restarts a container,
   * and waits until the fleet is ready; its console goes to a log of its own beside the first one.
   */
  public void startAgain(String moduleName, Duration timeout) throws IOException {
    relaunch(moduleName);
    awaitReady(timeout);
  }

  /**
   * A platform upgrade: every sidecar gets SIGTERM at once and, once all have exited (their shutdown delay, then
   * in-flight requests), a fresh process per module starts on the same ports with empty caches, as a rollout
   * without surge replaces every pod; waits until all are ready. The old processes' decision-cache counters are
   * read just before the stop and stay in {@link #decisionCacheHitsAndMisses}, so the fleet's counters cover the
   * whole run (the requests of the last moment before the stop excepted).
   */
  public void restartAll(Duration timeout) throws IOException {
    var counters = decisionCacheHitsAndMisses();
    if (counters != null) {
      // the sum already holds the earlier retired counts: keep it as the new retired total
      retiredCache[0] = counters[0];
      retiredCache[1] = counters[1];
      retiredCounted = true;
    }
    var old = List.copyOf(processes.values());
    old.forEach(Process::destroy);
    for (var process : old) {
      awaitExit(process);
    }
    for (var module : List.copyOf(processes.keySet())) {
      relaunch(module);
    }
    awaitReady(timeout);
  }

  private void relaunch(String moduleName) throws IOException {
    var process = builders.get(moduleName).start();
    processes.put(moduleName, process);
    copyConsole(process, logDir.resolve("sidecar-" + moduleName + "-" + process.pid() + ".log"));
  }

  public String url(String moduleName) {
    return "http://127.0.0.1:" + ports.get(moduleName);
  }

  /** The file the module's sidecar writes its console (and access lines) to. */
  public Path log(String moduleName) {
    return logDir.resolve("sidecar-" + moduleName + ".log");
  }

  /**
   * What the first sidecar says it is, from Quarkus' start line ({@code <name> <version> on JVM (powered by Quarkus
   * <version>) started in <s>s}), so a report names the build that ran and not the one it was meant to be.
   */
  public String reportedVersion() {
    var module = CirculationModules.ALL.stream().map(CirculationModules.Module::name).filter(ports::containsKey)
      .findFirst().orElseThrow();
    try {
      var matcher = STARTED.matcher(Files.readString(log(module)));
      return matcher.find()
        ? "%s %s (Quarkus %s), started in %s s".formatted(matcher.group(1), matcher.group(2), matcher.group(3),
          matcher.group(4))
        : "not reported (no Quarkus start line in " + log(module).getFileName() + ")";
    } catch (IOException e) {
      return "not reported (" + e.getMessage() + ")";
    }
  }

  public ProcessHandle process(String moduleName) {
    return processes.get(moduleName).toHandle();
  }

  public List<ProcessHandle> processes() {
    return processes.values().stream().map(Process::toHandle).toList();
  }

  /**
   * The decision cache's hits and misses summed over the fleet, from each sidecar's Prometheus metrics
   * (Caffeine's {@code cache_gets_total}); {@code null} when a build does not publish them.
   */
  public long[] decisionCacheHitsAndMisses() {
    long hits = 0;
    long misses = 0;
    boolean found = false;
    for (var module : processes.keySet()) {
      String metrics;
      try {
        metrics = get("http://127.0.0.1:" + managementPorts.get(module) + "/q/metrics").body();
      } catch (IOException e) {
        continue;
      }
      for (var line : metrics.split("\n")) {
        if (line.startsWith("cache_gets_total{") && line.contains("cache=\"sidecar.authz.decisions\"")) {
          found = true;
          long value = (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
          if (line.contains("result=\"hit\"")) {
            hits += value;
          } else if (line.contains("result=\"miss\"")) {
            misses += value;
          }
        }
      }
    }
    return found || retiredCounted ? new long[]{hits + retiredCache[0], misses + retiredCache[1]} : null;
  }

  /** The decision cache's entries summed over the fleet (Caffeine's estimate, {@code cache_size}); -1 if unread. */
  public long decisionCacheEntries() {
    long entries = 0;
    boolean found = false;
    for (var module : processes.keySet()) {
      try {
        for (var line : get("http://127.0.0.1:" + managementPorts.get(module) + "/q/metrics").body().split("\n")) {
          if (line.startsWith("cache_size{") && line.contains("cache=\"sidecar.authz.decisions\"")) {
            entries += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            found = true;
          }
        }
      } catch (IOException e) {
        // a sidecar whose metrics cannot be read adds nothing; the figure says so only if none could be read
      }
    }
    return found ? entries : -1;
  }

  /**
   * The platform events {@code module}'s sidecar has counted with {@code outcome} (applied, ignored, malformed,
   * failed), summed over the kinds in {@code kinds} (discovery, entitlement, logout), from its
   * {@code sidecar_events_total}; -1 when its metrics cannot be read.
   */
  public long events(String module, List<String> kinds, String outcome) {
    String metrics;
    try {
      metrics = get("http://127.0.0.1:" + managementPorts.get(module) + "/q/metrics").body();
    } catch (IOException e) {
      return -1;
    }
    long count = 0;
    for (var line : metrics.split("\n")) {
      if (line.startsWith("sidecar_events_total{") && line.contains("outcome=\"" + outcome + "\"")
        && kinds.stream().anyMatch(kind -> line.contains("kind=\"" + kind + "\""))) {
        count += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return count;
  }

  private void awaitReady(Duration timeout) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    var pending = new ArrayList<>(processes.keySet());
    while (!pending.isEmpty()) {
      if (System.nanoTime() > deadline) {
        throw new IOException("sidecars not ready after " + timeout + ": " + pending);
      }
      for (var module : List.copyOf(pending)) {
        if (!processes.get(module).isAlive()) {
          throw new IOException("the sidecar of " + module + " exited with " + processes.get(module).exitValue()
            + "; the end of " + log(module) + ":\n" + tail(log(module)));
        }
        try {
          if (get(url(module) + "/admin/health/ready").statusCode() == 200) {
            pending.remove(module);
          }
        } catch (IOException e) {
          // not listening yet
        }
      }
      sleep(300);
    }
  }

  /** The last lines of a log, so a run that fails in CI says why without the log file. */
  private static String tail(Path log) {
    sleep(500); // the console copier may still be writing the process's last lines
    try {
      var lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
    } catch (IOException e) {
      return "(unreadable: " + e.getMessage() + ")";
    }
  }

  private static HttpResponse<String> get(String url) throws IOException {
    try {
      return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
        HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    processes.values().forEach(Process::destroy);
    for (var process : processes.values()) {
      awaitExit(process);
    }
  }

  private static void awaitExit(Process process) {
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
