package org.folio.sidecar.load.profile;

import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.folio.sidecar.load.cli.Args;
import org.folio.sidecar.load.cli.Command;
import org.folio.sidecar.load.fleet.PackagedSidecar;
import org.folio.sidecar.load.fleet.SidecarConfig;
import org.folio.sidecar.load.measure.AttachedJvm;
import org.folio.sidecar.load.measure.ClosedLoop;
import org.folio.sidecar.load.measure.LoadAverage;
import org.folio.sidecar.load.measure.ProcessMeter;
import org.folio.sidecar.testkit.FreePorts;
import org.folio.sidecar.testkit.GrantingKeycloak;
import org.folio.sidecar.testkit.TestModule;

/**
 * The sidecar's memory under each of a list of JVM configurations (load/memory.sh), one after the other against
 * the same workload: a packaged sidecar with native memory tracking, Keycloak played by a stub that grants at once
 * (so a cache-filling phase can ask for far more decisions than any heap here holds, as HeapBoundedCachesIT does),
 * the module by a Vert.x server that answers at once. Per configuration: RSS after start, at idle, at its peak under
 * load (cache filling and hit path), after a full GC; the live heap; threads; NMT's committed memory by category;
 * the hit path's latency, CPU per 1,000 requests and requests/s.
 */
public final class MemoryProfile {

  static final String TENANT = "ltmem";
  private static final String[][] ENDPOINTS = {{"GET", "/items"}, {"GET", "/items/1"}, {"PUT", "/items/1"},
    {"DELETE", "/items/1"}, {"GET", "/downloads/x"}};
  private static final String HIT_PATH = "/items/1";
  /** Today's image in a 512Mi container (the JVM sizes from the container's memory) and the other candidates. */
  static final List<String> DEFAULT_CONFIGS = List.of(
    "image-512Mi: -XX:MaxRAM=512m -XX:MaxRAMPercentage=75",
    "bench-g1-256: -Xms64m -Xmx256m",
    "chart-zgc-64: -XX:+UseZGC -Xms64m -Xmx64m",
    "g1-64: -XX:+UseG1GC -Xmx64m",
    "parallel-64: -XX:+UseParallelGC -Xmx64m",
    "serial-64: -XX:+UseSerialGC -Xmx64m",
    "serial-64-threads: -XX:+UseSerialGC -Xmx64m -Dquarkus.vertx.event-loops-pool-size=2 "
      + "-Dquarkus.thread-pool.max-threads=16",
    "serial-64-native: -XX:+UseSerialGC -Xmx64m -XX:ReservedCodeCacheSize=32m -XX:MaxDirectMemorySize=32m -Xss512k",
    "serial-64-c1: -XX:+UseSerialGC -Xmx64m -XX:TieredStopAtLevel=1");
  // "Shared class space" adds ", readonly=...KB" inside the parentheses
  static final Pattern NMT = Pattern.compile("^-\\s+(.+?) \\(reserved=(\\d+)KB, committed=(\\d+)KB[,)]",
    Pattern.MULTILINE);
  private static final Pattern NMT_TOTAL = Pattern.compile("^Total: reserved=(\\d+)KB, committed=(\\d+)KB",
    Pattern.MULTILINE);
  // HTTP/1.1 as Prometheus and kubelet's probes: Java's default h2c upgrade would have the management port load
  // Netty's and Vert.x's HTTP/2 classes (about 190) that no scrape or probe loads
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
    .connectTimeout(Duration.ofSeconds(2)).build();

  /** What one configuration measured; memory in bytes, NMT's committed memory by category in KiB. */
  record Row(SidecarConfig config, long rssStart, long rssIdle, long rssPeak, long rssAfterGc, AttachedJvm.LiveSet live,
    int threadsIdle, int threadsLoaded, double cacheSize, double cacheWeight, double cacheBound, long fillRequests,
    ClosedLoop.Point direct, ClosedLoop.Point hit, Map<String, Long> nmtCommitted, long nmtTotal, String load) {
  }

  private MemoryProfile() {
  }

  public static void main(String[] args) {
    Command.exit(args, MemoryProfile::run);
  }

  private static int run(List<String> args) throws Exception {
    int hitSeconds = Args.intOption(args, "--seconds", 15);
    int warmUp = Args.intOption(args, "--warm-up", 20);
    int fillSeconds = Args.intOption(args, "--fill-seconds", 40);
    int idleSeconds = Args.intOption(args, "--idle-seconds", 10);
    int connections = Args.intOption(args, "--connections", 64);
    int users = Args.intOption(args, "--users", 20_000);
    var configs = (Args.option(args, "--configs").isPresent()
      ? Files.readAllLines(Path.of(Args.option(args, "--configs").orElseThrow())).stream()
        .filter(line -> !line.isBlank() && !line.startsWith("#")).toList()
      : DEFAULT_CONFIGS).stream().map(SidecarConfig::parse).toList();
    var project = Path.of("").toAbsolutePath();
    var out = Args.out(args, Args.now("yyyyMMdd-HHmm") + "-memory");
    Files.createDirectories(out.resolve("logs"));
    var jar = project.resolve("sidecar/target/quarkus-app/quarkus-run.jar");
    var vertx = Vertx.vertx();
    try (var keycloak = GrantingKeycloak.start(TENANT)) {
      var workload = Workload.prepare(vertx, keycloak, jar, users, connections, warmUp, fillSeconds, hitSeconds,
        idleSeconds, out.resolve("logs"));
      var file = out.resolve("measurements.md");
      var header = "# Memory by JVM configuration\n\n`load/memory.sh " + String.join(" ", args)
        + "`: one packaged sidecar at a time with `-XX:NativeMemoryTracking=summary`; " + users + " users (each a "
        + "session of its own) x " + ENDPOINTS.length + " endpoints offered in a " + fillSeconds + "-s cache-filling "
        + "phase (wrk, " + connections + " connections), then the hit path (`GET " + HIT_PATH + "`, one user) for "
        + hitSeconds + " s after " + warmUp + " s of warm-up. Keycloak is a stub granting at once, the module a "
        + "Vert.x server answering `{}` at once. RSS peak: the highest of 200-ms samples over both phases.\n";
      var rows = new ArrayList<Row>();
      for (var config : configs) {
        log("%s: %s", config.label(), config.describe());
        rows.add(workload.measure(config));
        // rewritten after each configuration: a later failure keeps the earlier rows
        Files.writeString(file, header + table(rows));
      }
      System.out.println(Files.readString(file));
      log("written %s", file);
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
    return 0;
  }

  /**
   * Where a caller looks into the sidecar beside the table's figures: once it is ready, and once the traffic
   * (cache filling, the hit path, a metrics scrape) is over, before anything attaches to it.
   */
  interface Checkpoints {

    Checkpoints NONE = new Checkpoints() {
    };

    default void started(ProcessHandle sidecar) throws Exception {
    }

    default void loaded(ProcessHandle sidecar) throws Exception {
    }
  }

  /** The fixed parts of the workload, the same for every configuration. */
  record Workload(String wrk, Path jar, String keycloakUrl, int modulePort, Path descriptor,
    ClosedLoop.Caller caller, Path tokenFile, Path fillScript, int connections, int warmUp, int fillSeconds,
    int hitSeconds, int idleSeconds, Path logs) {

    /**
     * The module (a Vert.x server answering {@code {}} at once on {@code vertx}), the users' tokens from the
     * granting Keycloak stub, the fill script and the module descriptor, written to {@code logs}.
     */
    static Workload prepare(Vertx vertx, GrantingKeycloak keycloak, Path jar, int users, int connections,
      int warmUp, int fillSeconds, int hitSeconds, int idleSeconds, Path logs) throws Exception {
      Files.createDirectories(logs);
      var wrk = ClosedLoop.wrk().orElseThrow(() -> new IllegalStateException("wrk is not installed"));
      int modulePort = FreePorts.next();
      vertx.createHttpServer().requestHandler(request -> request.response()
        .putHeader("content-type", "application/json").end("{}"))
        .listen(modulePort, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
      var tokens = keycloak.tokens(users + 1, 24 * 3600);
      var hitToken = tokens.removeLast();
      var tokenFile = logs.resolve("tokens.txt");
      Files.write(tokenFile, tokens);
      var fillScript = logs.resolve("fill.lua");
      Files.writeString(fillScript, MemoryProfile.fillScript());
      var descriptor = logs.resolve("descriptor.json");
      Files.writeString(descriptor, TestModule.descriptor().encode());
      var caller = new ClosedLoop.Caller(TENANT, "", () -> hitToken);
      return new Workload(wrk, jar, keycloak.url(), modulePort, descriptor, caller, tokenFile, fillScript,
        connections, warmUp, fillSeconds, hitSeconds, idleSeconds, logs);
    }

    /** The same workload on another packaged sidecar. */
    Workload withJar(Path other) {
      return new Workload(wrk, other, keycloakUrl, modulePort, descriptor, caller, tokenFile, fillScript,
        connections, warmUp, fillSeconds, hitSeconds, idleSeconds, logs);
    }

    Row measure(SidecarConfig config) throws Exception {
      return measure(config, Checkpoints.NONE);
    }

    Row measure(SidecarConfig config, Checkpoints checkpoints) throws Exception {
      var options = new ArrayList<>(config.jvmOptions());
      options.add("-XX:NativeMemoryTracking=summary");
      try (var sidecar = PackagedSidecar.start(jar, options, config.env(), keycloakUrl, modulePort, descriptor,
        logs.resolve("sidecar-" + config.label() + ".log"))) {
        var handle = sidecar.handle();
        int port = sidecar.port();
        int managementPort = sidecar.managementPort();
        long rssStart = rss(handle);
        checkpoints.started(handle);
        Thread.sleep(idleSeconds * 1000L);
        long rssIdle = rss(handle);
        int threadsIdle = threads(handle);
        var sidecarUrl = "http://127.0.0.1:" + port + HIT_PATH;
        var direct = ClosedLoop.parse("direct", connections, hitSeconds, ClosedLoop.wrk(wrk,
          "http://127.0.0.1:" + modulePort + HIT_PATH, caller, connections, hitSeconds), null);
        var peak = ProcessMeter.start(List.of(handle));
        ClosedLoop.wrk(wrk, sidecarUrl, caller, connections, warmUp);
        var fillOutput = fill(sidecarUrl);
        var fill = ClosedLoop.parse("fill", connections, fillSeconds, fillOutput, null);
        var meter = ProcessMeter.start(List.of(handle));
        var hitOutput = ClosedLoop.wrk(wrk, sidecarUrl, caller, connections, hitSeconds);
        var usage = meter.stop();
        int threadsLoaded = threads(handle);
        long rssPeak = Math.max(peak.stop().peakRssBytes(), usage.peakRssBytes());
        var hit = ClosedLoop.parse("sidecar", connections, hitSeconds, hitOutput, usage);
        var metrics = get("http://127.0.0.1:" + managementPort + "/q/metrics");
        checkpoints.loaded(handle);
        AttachedJvm.LiveSet live;
        try (var jvm = new AttachedJvm(handle.pid())) {
          live = jvm.liveSet(handle);
        }
        var nmt = jcmd(handle.pid(), "VM.native_memory", "summary", "scale=KB");
        Files.writeString(logs.resolve("nmt-" + config.label() + ".txt"), nmt);
        var committed = new LinkedHashMap<String, Long>();
        var matcher = NMT.matcher(nmt);
        while (matcher.find()) {
          committed.put(matcher.group(1).trim(), Long.parseLong(matcher.group(3)));
        }
        var total = NMT_TOTAL.matcher(nmt);
        return new Row(config, rssStart, rssIdle, rssPeak, live.rss(), live, threadsIdle, threadsLoaded,
          sample(metrics, "cache_size{", "cache=\"sidecar.authz.decisions\""),
          sample(metrics, "sidecar_cache_weight_bytes{", "cache=\"decisions\""),
          sample(metrics, "sidecar_cache_weight_max_bytes{", "cache=\"decisions\""),
          Math.round(fill.requestsPerSecond() * fillSeconds), direct, hit, committed,
          total.find() ? Long.parseLong(total.group(2)) : 0, LoadAverage.now());
      }
    }

    /** wrk walking every user's session across every endpoint, each thread from its own offset. */
    private String fill(String sidecarUrl) throws IOException, InterruptedException {
      var process = new ProcessBuilder(wrk, "-t", "2", "-c", String.valueOf(connections), "-d", fillSeconds + "s",
        "-s", fillScript.toString(), sidecarUrl, "--", tokenFile.toString(), "2", caller.tenant())
        .redirectErrorStream(true).start();
      var output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      process.waitFor();
      return output;
    }
  }

  private static String fillScript() {
    var endpoints = new StringBuilder();
    for (var endpoint : ENDPOINTS) {
      endpoints.append("{\"").append(endpoint[0]).append("\", \"").append(endpoint[1]).append("\"}, ");
    }
    return ClosedLoop.threadNumbered("offset", """
      local tokens = {}
      local endpoints = {%s}
      local counter = 0
      local step = 1
      local tenant = ""
      function init(args)
        for line in io.lines(args[1]) do tokens[#tokens + 1] = line end
        step = tonumber(args[2])
        tenant = args[3]
        counter = offset
      end
      function request()
        local key = counter %% (#tokens * #endpoints)
        counter = counter + step
        local endpoint = endpoints[key %% #endpoints + 1]
        return wrk.format(endpoint[1], endpoint[2],
          {["x-okapi-tenant"] = tenant, ["x-okapi-token"] = tokens[math.floor(key / #endpoints) + 1]})
      end
      """.formatted(endpoints));
  }

  static String table(List<Row> rows) {
    var text = new StringBuilder("\n| configuration | RSS after start | idle | peak under load | after full GC | heap "
      + "live (committed) | non-heap | threads idle / loaded | decision cache entries, MiB of MiB | fill "
      + "requests | direct p50 / p99 ms | sidecar p50 / p99 ms | added p50 / p99 ms | CPU s per 1,000 | requests/s "
      + "| load average |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
      + "| ---: | ---: | --- |\n");
    for (var row : rows) {
      text.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %d | %d (%d) | %d | %d / %d | %.0f, %.1f of %.1f "
        + "| %d | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f | %.3f | %.0f | %s |%n", row.config().label(),
        row.rssStart() >> 20, row.rssIdle() >> 20, row.rssPeak() >> 20, row.rssAfterGc() >> 20,
        row.live().heapUsed() >> 20, row.live().heapCommitted() >> 20, row.live().nonHeapUsed() >> 20,
        row.threadsIdle(), row.threadsLoaded(), row.cacheSize(), row.cacheWeight() / 1048576,
        row.cacheBound() / 1048576, row.fillRequests(), row.direct().p50Millis(), row.direct().p99Millis(),
        row.hit().p50Millis(), row.hit().p99Millis(), row.hit().p50Millis() - row.direct().p50Millis(),
        row.hit().p99Millis() - row.direct().p99Millis(), row.hit().sidecarCpuPerThousand(),
        row.hit().requestsPerSecond(), row.load()));
    }
    text.append("\nMemory in MiB. NMT's committed memory by category after the full GC, MiB (categories under 1 MiB "
      + "everywhere left out):\n\n");
    var categories = new TreeSet<String>();
    rows.forEach(row -> row.nmtCommitted().forEach((name, kib) -> {
      if (kib >= 1024) {
        categories.add(name);
      }
    }));
    text.append("| configuration | ").append(String.join(" | ", categories)).append(" | NMT total |\n|---|")
      .append(" ---: |".repeat(categories.size() + 1)).append('\n');
    for (var row : rows) {
      text.append("| ").append(row.config().label()).append(" | ");
      for (var category : categories) {
        text.append(String.format(Locale.ROOT, "%.1f | ", row.nmtCommitted().getOrDefault(category, 0L) / 1024.0));
      }
      text.append(String.format(Locale.ROOT, "%.1f |%n", row.nmtTotal() / 1024.0));
    }
    text.append("\nOptions:\n\n");
    rows.forEach(row -> text.append("- ").append(row.config().label()).append(": `")
      .append(row.config().describe()).append("`\n"));
    return text.toString();
  }

  private static String get(String url) throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
      HttpResponse.BodyHandlers.ofString()).body();
  }

  /** The first sample of a Prometheus family with the given label, or NaN. */
  private static double sample(String metrics, String family, String label) {
    return metrics.lines().filter(line -> line.startsWith(family) && line.contains(label)).findFirst()
      .map(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).orElse(Double.NaN);
  }

  static String jcmd(long pid, String... command) throws IOException, InterruptedException {
    var words = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
      String.valueOf(pid)));
    words.addAll(Arrays.asList(command));
    var process = new ProcessBuilder(words).redirectErrorStream(true).start();
    var output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    process.waitFor();
    return output;
  }

  static long rss(ProcessHandle process) {
    return ProcessMeter.start(List.of(process)).stop().peakRssBytes();
  }

  private static int threads(ProcessHandle process) throws IOException {
    return Files.readAllLines(Path.of("/proc", String.valueOf(process.pid()), "status")).stream()
      .filter(line -> line.startsWith("Threads:")).findFirst()
      .map(line -> Integer.parseInt(line.replaceAll("\\D", ""))).orElse(0);
  }

  private static void log(String format, Object... args) {
    System.out.printf("[memory] " + format + "%n", args);
  }
}
