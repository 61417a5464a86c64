package org.folio.sidecar.load.profile;

import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.folio.sidecar.load.cli.Args;
import org.folio.sidecar.load.cli.Command;
import org.folio.sidecar.load.fleet.Nginx;
import org.folio.sidecar.load.fleet.PackagedSidecar;
import org.folio.sidecar.load.fleet.ShippedJvmOptions;
import org.folio.sidecar.load.fleet.SidecarConfig;
import org.folio.sidecar.load.measure.ClosedLoop;
import org.folio.sidecar.load.measure.LoadAverage;
import org.folio.sidecar.load.measure.ProcessMeter;
import org.folio.sidecar.testkit.FreePorts;
import org.folio.sidecar.testkit.GrantingKeycloak;
import org.folio.sidecar.testkit.TestModule;

/**
 * What one proxied request costs in system calls (load/syscalls.sh): packaged sidecars (one per variant, e.g. a
 * build before and after a change) with a warm decision cache and nginx in front of the same stub module. First a
 * tracer ({@code perf trace -s}, or {@code strace -c -f}) attached to each for a fixed number of keep-alive GETs at
 * each connection count, an answer with a Content-Length and a chunked one, giving system calls per request by
 * name; then, untraced, CPU seconds per 1,000 requests and requests/s at one connection count, interleaved (each
 * variant, nginx; again), so that no path always runs on the quieter machine.
 */
public final class HopSyscalls {

  private static final String TENANT = "ltsys";
  /** The hit path; the stub answers it with a Content-Length. */
  private static final String PATH = "/items/1";
  /** Also a hit, which the stub answers chunked: the answer's end is a write of its own unless flushes are merged. */
  private static final String CHUNKED_PATH = "/items";
  private static final Pattern REQUESTS = Pattern.compile("(\\d+) requests in");
  /** perf's note when its buffers overflowed: the column's counts are then low by about that many calls. */
  private static final Pattern LOST = Pattern.compile("LOST (\\d+) events");

  /** System calls per request by name for one path at one connection count, and the requests they were counted over. */
  record Count(String path, String resource, int connections, long requests, long lost,
    Map<String, Double> perRequest) {
  }

  /** One untraced window of one path. */
  record Window(int round, String path, ClosedLoop.Point point, String load) {
  }

  private HopSyscalls() {
  }

  public static void main(String[] args) {
    Command.exit(args, HopSyscalls::run);
  }

  private static int run(List<String> args) throws Exception {
    int requests = Args.intOption(args, "--requests", 20_000);
    int seconds = Args.intOption(args, "--seconds", 15);
    int warmUp = Args.intOption(args, "--warm-up", 20);
    int rounds = Args.intOption(args, "--rounds", 2);
    int cpuConnections = Args.intOption(args, "--connections", 64);
    var tracedConnections = Args.option(args, "--traced-connections").map(value -> Stream.of(value.split(","))
      .map(Integer::parseInt).toList()).orElse(List.of(16, 64));
    var variantLines = Args.values(args, "--variant");
    var variants = (variantLines.isEmpty()
      ? List.of("sidecar: sidecar/target/quarkus-app/quarkus-run.jar")
      : variantLines).stream().map(SidecarConfig::parse).toList();
    var project = Path.of("").toAbsolutePath();
    var out = Args.out(args, Args.now("yyyyMMdd-HHmm") + "-syscalls");
    var logs = out.resolve("logs");
    Files.createDirectories(logs);
    var wrk = ClosedLoop.wrk().orElseThrow(() -> new IllegalStateException("wrk is not installed"));
    var tracer = Tracer.valueOf(Args.option(args, "--tracer").orElse("perf").toUpperCase(Locale.ROOT));
    var counter = logs.resolve("count.lua");
    Files.writeString(counter, ClosedLoop.threadNumbered("id", """
      local limit = 0
      local done = 0
      local marker = ""
      function init(args)
        limit = tonumber(args[1])
        marker = args[2] .. "-" .. id
      end
      function response(status, headers, body)
        done = done + 1
        if done == limit then
          io.open(marker, "w"):close()
          wrk.thread:stop()
        end
      end
      """));
    var vertx = Vertx.vertx();
    var started = new ArrayList<AutoCloseable>();
    try (var keycloak = GrantingKeycloak.start(TENANT)) {
      int modulePort = FreePorts.next();
      vertx.createHttpServer().requestHandler(request -> request.response()
        .putHeader("content-type", "application/json").setChunked(request.path().equals(CHUNKED_PATH))
        .end(request.path().equals(CHUNKED_PATH) ? "[]" : "{}"))
        .listen(modulePort, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
      var token = keycloak.tokens(1, 24 * 3600).getFirst();
      var caller = new ClosedLoop.Caller(TENANT, "", () -> token);
      var descriptor = logs.resolve("descriptor.json");
      Files.writeString(descriptor, TestModule.descriptor().encode());
      // each path's root process: the tracer and the CPU meter take it with its threads and children
      var paths = new LinkedHashMap<String, ProcessHandle>();
      var urls = new LinkedHashMap<String, String>();
      for (var variant : variants) {
        var jvm = new ArrayList<>(ShippedJvmOptions.list());
        var words = variant.jvmOptions();
        jvm.addAll(words.subList(1, words.size()));
        var sidecar = PackagedSidecar.start(project.resolve(words.getFirst()), jvm, variant.env(), keycloak.url(),
          modulePort, descriptor, logs.resolve("sidecar-" + variant.label() + ".log"));
        started.add(sidecar);
        paths.put(variant.label(), sidecar.handle());
        urls.put(variant.label(), sidecar.url());
      }
      int nginxPort = FreePorts.next();
      var nginx = Nginx.start(nginxPort, modulePort, out.resolve("nginx"))
        .orElseThrow(() -> new IllegalStateException("nginx is not installed"));
      started.add(nginx);
      paths.put("nginx", nginx.handle());
      urls.put("nginx", "http://127.0.0.1:" + nginxPort);
      for (var variant : variants) {
        log("%s: warming up for %d s", variant.label(), warmUp);
        ClosedLoop.wrk(wrk, urls.get(variant.label()) + PATH, caller, cpuConnections, warmUp);
        ClosedLoop.wrk(wrk, urls.get(variant.label()) + CHUNKED_PATH, caller, cpuConnections, 2);
      }
      var counts = new ArrayList<Count>();
      for (var resource : List.of(PATH, CHUNKED_PATH)) {
        for (int connections : tracedConnections) {
          for (var path : paths.entrySet()) {
            log("%s: %s over %d requests of %s at %d connections", path.getKey(), tracer, requests, resource,
              connections);
            counts.add(trace(tracer, path.getKey(), resource, path.getValue(), wrk, counter, urls.get(path.getKey()),
              caller, connections, requests, logs));
          }
        }
      }
      var windows = new ArrayList<Window>();
      for (int round = 1; round <= rounds; round++) {
        for (var path : paths.entrySet()) {
          log("round %d: %s, %d s at %d connections", round, path.getKey(), seconds, cpuConnections);
          var meter = ProcessMeter.start(List.of(path.getValue()));
          var output = ClosedLoop.wrk(wrk, urls.get(path.getKey()) + PATH, caller, cpuConnections, seconds);
          var point = ClosedLoop.parse(path.getKey(), cpuConnections, seconds, output, meter.stop());
          windows.add(new Window(round, path.getKey(), point, LoadAverage.now()));
        }
      }
      var report = report(tracer, args, variants, requests, cpuConnections, seconds, warmUp, counts, windows);
      Files.writeString(out.resolve("report.md"), report);
      System.out.println(report);
      log("written %s", out.resolve("report.md"));
    } finally {
      for (var process : started.reversed()) {
        process.close();
      }
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
    return 0;
  }

  /**
   * The tracer attached to every thread of the path's processes while wrk sends {@code requests} GETs (each of its
   * two threads stops after its half and says so in a marker file; wrk, which would otherwise sleep out its
   * duration, is then interrupted), stopped after them; its counts divided by the requests wrk counted.
   */
  private static Count trace(Tracer tracer, String label, String resource, ProcessHandle root, String wrk, Path counter,
    String url,
    ClosedLoop.Caller caller, int connections, int requests, Path logs) throws IOException, InterruptedException {
    var name = tracer.name().toLowerCase(Locale.ROOT) + "-" + label + "-c" + connections
      + (resource.equals(PATH) ? "" : "-chunked");
    var summary = logs.resolve(name + ".txt");
    var pids = Stream.concat(Stream.of(root), root.descendants()).map(process -> String.valueOf(process.pid()))
      .toList();
    var traced = new ProcessBuilder(tracer.command(summary, pids)).redirectErrorStream(true)
      .redirectOutput(logs.resolve(name + ".log").toFile()).start();
    // neither tracer says when it is attached; a second is ample on this machine
    Thread.sleep(1000);
    var marker = logs.resolve("done-" + name);
    var wrkRun = new ProcessBuilder(wrk, "-t", "2", "-c", String.valueOf(connections), "-d", "600s", "-s",
      counter.toString(), "-H", "x-okapi-tenant: " + caller.tenant(), "-H", "x-okapi-token: " + caller.token().get(),
      url + resource, "--", String.valueOf(requests / 2), marker.toString()).redirectErrorStream(true)
      .redirectOutput(logs.resolve("wrk-" + name + ".txt").toFile()).start();
    while (wrkRun.isAlive() && !(Files.exists(Path.of(marker + "-0")) && Files.exists(Path.of(marker + "-1")))) {
      Thread.sleep(50);
    }
    interrupt(wrkRun);
    interrupt(traced);
    var matcher = REQUESTS.matcher(Files.readString(logs.resolve("wrk-" + name + ".txt")));
    long done = matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
    var calls = new TreeMap<String, Long>();
    var rows = tracer.row().matcher(Files.readString(summary));
    while (rows.find()) {
      if (!rows.group("name").equals("total")) {
        calls.merge(rows.group("name"), Long.parseLong(rows.group("calls")), Long::sum);
      }
    }
    var perRequest = new LinkedHashMap<String, Double>();
    calls.forEach((call, count) -> perRequest.put(call, done == 0 ? Double.NaN : count / (double) done));
    long lost = 0;
    var lostEvents = LOST.matcher(Files.readString(summary));
    while (lostEvents.find()) {
      lost += Long.parseLong(lostEvents.group(1));
    }
    return new Count(label, resource, connections, done, lost, perRequest);
  }

  /** SIGINT, on which both wrk and the tracers print their summaries and exit. */
  private static void interrupt(Process process) throws IOException, InterruptedException {
    new ProcessBuilder("kill", "-INT", String.valueOf(process.pid())).start().waitFor();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }

  /** How system calls are counted: strace stops each thread at each call, perf reads the kernel's tracepoints. */
  enum Tracer {
    STRACE(Pattern.compile("^\\s*[\\d.]+\\s+[\\d.]+\\s+\\d+\\s+(?<calls>\\d+)\\s+(?:\\d+\\s+)?(?<name>[a-z_0-9]+)\\s*$",
      Pattern.MULTILINE)), PERF(
        Pattern.compile("^ {3}(?<name>[a-z_0-9]+)\\s+(?<calls>\\d+)\\s+\\d+\\s+[\\d.]+", Pattern.MULTILINE));

    private final Pattern row;

    Tracer(Pattern row) {
      this.row = row;
    }

    /** A row of the summary: the call's {@code name} and its {@code calls}. */
    Pattern row() {
      return row;
    }

    List<String> command(Path summary, List<String> pids) {
      return this == STRACE
        ? Stream.concat(Stream.of("/usr/bin/strace", "-c", "-f", "-o", summary.toString()),
          pids.stream().flatMap(pid -> Stream.of("-p", pid))).toList()
        : List.of("/usr/bin/perf", "trace", "-s", "-o", summary.toString(), "-p", String.join(",", pids));
    }
  }

  private static String report(Tracer tracer, List<String> args, List<SidecarConfig> variants, int requests,
    int connections, int seconds, int warmUp, List<Count> counts, List<Window> windows) {
    var text = new StringBuilder("# System calls per hop\n\n`load/syscalls.sh ").append(String.join(" ", args))
      .append("`: `GET ").append(PATH).append("` (a decision-cache hit) with keep-alive through each packaged "
        + "sidecar (the image's JVM options: `")
      .append(ShippedJvmOptions.line()).append("`, plus each variant's "
        + "own) and through nginx (proxy_pass, upstream keep-alive, no access log), all in front of the same "
        + "Vert.x stub answering `{}` at once with a Content-Length; the traced phase also sends `GET " + CHUNKED_PATH
        + "`, which the stub answers `[]` chunked. Keycloak is a stub that grants at once. Each sidecar warmed up ")
      .append(warmUp).append(" s first.\n\nVariants:\n\n");
    variants.forEach(variant -> text.append("- ").append(variant.label()).append(": `").append(variant.describe())
      .append("`\n"));
    text.append("\n## System calls per request (").append(tracer == Tracer.PERF ? "perf trace -s" : "strace -c -f")
      .append(", ").append(requests).append(" requests per column)\n\nAll threads of the process (nginx: master and "
        + "workers), from a second before the first request to just after the last answer. A tracer slows each "
        + "system call, so a path batches more under it than at full speed: counts are the order of magnitude and the "
        + "comparison, not the untraced figures.\n\n| system call |");
    var names = new LinkedHashSet<String>();
    counts.stream().flatMap(count -> count.perRequest().entrySet().stream())
      .sorted(Map.Entry.<String, Double>comparingByValue().reversed()).forEach(entry -> names.add(entry.getKey()));
    counts.forEach(count -> text.append(' ').append(count.path()).append(" c").append(count.connections())
      .append(count.resource().equals(PATH) ? "" : " chunked").append(" |"));
    text.append("\n| --- |").append(" ---: |".repeat(counts.size())).append('\n');
    for (var name : names) {
      if (counts.stream().allMatch(count -> count.perRequest().getOrDefault(name, 0.0) < 0.01)) {
        continue;
      }
      text.append("| ").append(name).append(" |");
      counts.forEach(count -> text.append(String.format(Locale.ROOT, " %.2f |",
        count.perRequest().getOrDefault(name, 0.0))));
      text.append('\n');
    }
    text.append("| **all** |");
    counts.forEach(count -> text.append(String.format(Locale.ROOT, " **%.2f** |",
      count.perRequest().values().stream().mapToDouble(Double::doubleValue).sum())));
    text.append("\n| requests counted |");
    counts.forEach(count -> text.append(' ').append(count.requests()).append(" |"));
    text.append("\n| events the tracer lost |");
    counts.forEach(count -> text.append(' ').append(count.lost()).append(" |"));
    text.append("\n\n## CPU and requests/s untraced (wrk, ").append(connections).append(" connections, ")
      .append(seconds).append(" s per window, interleaved)\n\nCPU: the path's processes (nginx: master and workers) "
        + "from /proc over the window, wrk and the stub not counted.\n\n| round | path | requests/s | p50 ms | p99 ms "
        + "| failed | CPU s per 1,000 requests | load average after |\n| ---: | --- | ---: | ---: | ---: | ---: | ---: "
        + "| --- |\n");
    windows.forEach(window -> text.append(String.format(Locale.ROOT, "| %d | %s | %.0f | %.2f | %.2f | %d | %.4f | "
      + "%s |%n", window.round(), window.path(), window.point().requestsPerSecond(), window.point().p50Millis(),
      window.point().p99Millis(), window.point().failed(), window.point().sidecarCpuPerThousand(), window.load())));
    text.append("\nMeans over the rounds, against nginx (the issue's target: CPU per request at most 2.5x nginx's, "
      + "requests/s at least 0.5x):\n\n| path | requests/s | CPU s per 1,000 | requests/s vs nginx | CPU vs nginx |\n"
      + "| --- | ---: | ---: | ---: | ---: |\n");
    double nginxRate = mean(windows, "nginx", true);
    double nginxCpu = mean(windows, "nginx", false);
    windows.stream().map(Window::path).distinct().sorted(Comparator.comparing(path -> path.equals("nginx")))
      .forEach(path -> text.append(String.format(Locale.ROOT, "| %s | %.0f | %.4f | %.2f | %.2f |%n", path,
        mean(windows, path, true), mean(windows, path, false), mean(windows, path, true) / nginxRate,
        mean(windows, path, false) / nginxCpu)));
    return text.toString();
  }

  private static double mean(List<Window> windows, String path, boolean rate) {
    return windows.stream().filter(window -> window.path().equals(path))
      .mapToDouble(window -> rate ? window.point().requestsPerSecond() : window.point().sidecarCpuPerThousand())
      .average().orElse(Double.NaN);
  }

  private static void log(String format, Object... args) {
    System.out.printf("[syscalls] " + format + "%n", args);
  }
}
