package org.folio.sidecar.load.profile;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.folio.sidecar.load.cli.Args;
import org.folio.sidecar.load.cli.Command;
import org.folio.sidecar.load.fleet.ShippedJvmOptions;
import org.folio.sidecar.load.fleet.SidecarConfig;
import org.folio.sidecar.load.measure.LoadAverage;
import org.folio.sidecar.testkit.SidecarProcess;
import org.folio.sidecar.testkit.TestPlatform;

/**
 * What one sidecar costs with no traffic (load/idle.sh): the demo's platform (real Keycloak and Kafka, the module
 * and the managers stubbed), one packaged sidecar at a time on the image's JVM options, a few requests so caches
 * and JIT are as after traffic, a settling pause, then the CPU ticks of a quiet window from /proc, for the process
 * and per thread. The configurations (two builds or option sets) run interleaved, A, B, A, B, because the machine
 * is shared: a before/after measured apart would compare two machines.
 */
public final class IdleProfile {

  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final long TICKS_PER_SECOND = ticksPerSecond();

  /** One configuration: the jar it runs and what it adds to the image's JVM options and the platform's variables. */
  record Variant(String label, Path jar, SidecarConfig config) {

    /** {@code label: jar=PATH options NAME=value}, as memory.sh's lines plus the jar (default: this build's). */
    static Variant parse(String line, Path defaultJar) {
      var config = SidecarConfig.parse(line);
      var env = new LinkedHashMap<>(config.env());
      var jar = Optional.ofNullable(env.remove("jar")).map(Path::of).orElse(defaultJar).toAbsolutePath();
      return new Variant(config.label(), jar, new SidecarConfig(config.label(), config.jvmOptions(), env));
    }
  }

  /** CPU ticks of one thread name (threads of one pool share a truncated name) over the window. */
  record ThreadTicks(long ticks, int threads) {
  }

  /** What one run measured: the process's ticks over the window and the threads' by name. */
  record Run(Variant variant, long processTicks, Map<String, ThreadTicks> byThread, long endedThreadTicks,
    int threadCount, String loadBefore, String loadAfter) {

    double cores(int windowSeconds) {
      return processTicks / (double) TICKS_PER_SECOND / windowSeconds;
    }
  }

  private IdleProfile() {
  }

  public static void main(String[] args) {
    Command.exit(args, IdleProfile::run);
  }

  private static int run(List<String> args) throws Exception {
    int settle = Args.intOption(args, "--settle", 30);
    int window = Args.intOption(args, "--seconds", 60);
    int rounds = Args.intOption(args, "--rounds", 2);
    int warmRequests = Args.intOption(args, "--warm-requests", 200);
    var project = Path.of("").toAbsolutePath();
    var built = project.resolve("sidecar/target/quarkus-app/quarkus-run.jar");
    var variants = variants(args, built);
    var out = Args.out(args, Args.now("yyyyMMdd-HHmm") + "-idle");
    Files.createDirectories(out.resolve("logs"));
    log("starting the demo's platform (Keycloak, Kafka, stubs)");
    var platform = TestPlatform.get();
    var alpha = platform.alpha();
    var allowed = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
    var denied = platform.tokens().login(alpha, alpha.denied()).getString("access_token");
    var runs = new ArrayList<Run>();
    var file = out.resolve("report.md");
    for (int round = 1; round <= rounds; round++) {
      for (var variant : variants) {
        var log = out.resolve("logs/sidecar-" + variant.label() + "-" + round + ".log");
        log("round %d, %s: start, %d warm requests, %d s settling, %d s measured", round, variant.label(),
          warmRequests, settle, window);
        try (var sidecar = start(platform, variant, log, List.of())) {
          warm(sidecar, alpha.name(), allowed, denied, warmRequests);
          Thread.sleep(Duration.ofSeconds(settle));
          var run = measure(variant, sidecar.process(), window);
          runs.add(run);
          log("%s: %d ticks in %d s, %.4f cores", variant.label(), run.processTicks(), window, run.cores(window));
        }
        // rewritten after each run: a later failure keeps the earlier figures
        Files.writeString(file, report(args, variants, runs, settle, window, warmRequests, ""));
      }
    }
    var profiles = new StringBuilder();
    if (args.contains("--profile")) {
      var library = AsyncProfiler.extract(out);
      for (var variant : variants) {
        profiles.append(profile(platform, variant, out, library, alpha.name(), allowed, denied, warmRequests,
          settle, window));
      }
    }
    Files.writeString(file, report(args, variants, runs, settle, window, warmRequests, profiles.toString()));
    System.out.println(Files.readString(file));
    log("written %s", file);
    return 0;
  }

  private static List<Variant> variants(List<String> args, Path built) throws IOException {
    if (Args.option(args, "--configs").isPresent()) {
      return Files.readAllLines(Path.of(Args.option(args, "--configs").orElseThrow())).stream()
        .filter(line -> !line.isBlank() && !line.startsWith("#")).map(line -> Variant.parse(line, built)).toList();
    }
    var a = Args.option(args, "--jar-a")
      .map(jar -> Variant.parse("A: jar=" + jar + " " + Args.option(args, "--opts-a")
        .orElse(""), built));
    var b = Args.option(args, "--jar-b")
      .map(jar -> Variant.parse("B: jar=" + jar + " " + Args.option(args, "--opts-b")
        .orElse(""), built));
    var variants = new ArrayList<Variant>();
    a.ifPresent(variants::add);
    b.ifPresent(variants::add);
    return variants.isEmpty() ? List.of(Variant.parse("this-build:", built)) : variants;
  }

  /** The sidecar as the demo starts it, on the image's JVM options and the variant's. */
  private static SidecarProcess start(TestPlatform platform, Variant variant, Path log, List<String> extraOptions)
    throws IOException, InterruptedException {
    var command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(ShippedJvmOptions.list());
    command.addAll(variant.config().jvmOptions());
    command.addAll(extraOptions);
    command.addAll(List.of("-jar", variant.jar().toString()));
    var sidecar = SidecarProcess.start(platform, ProcessBuilder.Redirect.to(log.toFile()), variant.config().env(),
      command);
    try {
      sidecar.awaitReady(waiting -> log("still waiting: %s", waiting));
    } catch (RuntimeException e) {
      sidecar.close();
      throw e;
    }
    return sidecar;
  }

  /** Allowed and denied requests, health and metrics: what a pod sees before it falls quiet. */
  private static void warm(SidecarProcess sidecar, String tenant, String allowed, String denied, int requests)
    throws IOException, InterruptedException {
    for (int i = 0; i < requests; i++) {
      send(sidecar.baseUrl() + "/items/" + (i % 10), tenant, i % 10 == 9 ? denied : allowed);
    }
    send(sidecar.baseUrl() + "/admin/health", tenant, null);
    send(sidecar.managementUrl() + "/q/metrics", tenant, null);
  }

  private static void send(String url, String tenant, String token) throws IOException, InterruptedException {
    var request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMinutes(1))
      .header("x-okapi-tenant", tenant);
    if (token != null) {
      request.header("x-okapi-token", token);
    }
    HTTP.send(request.build(), HttpResponse.BodyHandlers.discarding());
  }

  private static Run measure(Variant variant, ProcessHandle process, int window)
    throws IOException, InterruptedException {
    var loadBefore = LoadAverage.now();
    long processBefore = processTicks(process.pid());
    var before = threadTicks(process.pid());
    Thread.sleep(Duration.ofSeconds(window));
    long processAfter = processTicks(process.pid());
    var after = threadTicks(process.pid());
    var byName = new TreeMap<String, ThreadTicks>();
    long live = 0;
    for (var thread : after.entrySet()) {
      var named = thread.getValue();
      long delta = named.ticks() - Optional.ofNullable(before.get(thread.getKey())).map(NamedTicks::ticks).orElse(0L);
      live += delta;
      byName.merge(named.name(), new ThreadTicks(delta, 1),
        (x, y) -> new ThreadTicks(x.ticks() + y.ticks(), x.threads() + y.threads()));
    }
    long total = processAfter - processBefore;
    return new Run(variant, total, byName, Math.max(0, total - live), after.size(), loadBefore,
      LoadAverage.now());
  }

  /**
   * One more run per variant with async-profiler sampling CPU by thread over the quiet window: the stacks behind
   * the per-thread ticks. Not one of the measured runs, since the profiler's own sampling costs CPU.
   */
  private static String profile(TestPlatform platform, Variant variant, Path out, Path library, String tenant,
    String allowed, String denied, int warmRequests, int settle, int window) throws Exception {
    var log = out.resolve("logs/sidecar-" + variant.label() + "-profiled.log");
    log("%s: profiled run", variant.label());
    try (var sidecar = start(platform, variant, log, List.of("-XX:+UnlockDiagnosticVMOptions",
      "-XX:+DebugNonSafepoints", "-XX:+EnableDynamicAgentLoading"))) {
      warm(sidecar, tenant, allowed, denied, warmRequests);
      Thread.sleep(Duration.ofSeconds(settle));
      long pid = sidecar.process().pid();
      var collapsed = out.resolve("logs/" + variant.label() + "-idle-cpu.collapsed");
      var html = out.resolve(variant.label() + "-idle-cpu.html");
      AsyncProfiler.agent(pid, library, "start,event=cpu,interval=1ms,threads");
      Thread.sleep(Duration.ofSeconds(window));
      AsyncProfiler.agent(pid, library, "stop,file=" + html);
      AsyncProfiler.agent(pid, library, "dump,collapsed,threads,file=" + collapsed);
      return "\n### " + variant.label() + ": [flame graph](" + html.getFileName() + ")\n\n"
        + topStacks(Files.readAllLines(collapsed), 15);
    }
  }

  /**
   * Samples by thread (the pool number and id left out), then the heaviest stacks, each as its thread and its last
   * Java or native frames (kernel frames, the same for every wake-up, skipped).
   */
  static String topStacks(List<String> collapsed, int limit) {
    var byThread = new HashMap<String, Long>();
    var byStack = new HashMap<List<String>, Long>();
    long total = 0;
    for (var line : collapsed) {
      int space = line.lastIndexOf(' ');
      if (space < 0) {
        continue;
      }
      long samples = Long.parseLong(line.substring(space + 1));
      var frames = line.substring(0, space).split(";");
      var thread = frames[0].replaceAll(" tid=\\d+]$", "]").replace("|", "/");
      byThread.merge(thread, samples, Long::sum);
      byStack.merge(List.of(thread, String.join(" ← ", lastFrames(frames, 4))), samples, Long::sum);
      total += samples;
    }
    var text = new StringBuilder("| samples | thread |\n| ---: | --- |\n");
    byThread.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
      .forEach(entry -> text.append("| ").append(entry.getValue()).append(" | ").append(entry.getKey())
        .append(" |\n"));
    text.append("\n| samples | thread | leaf ← callers |\n| ---: | --- | --- |\n");
    byStack.entrySet().stream().sorted(Map.Entry.<List<String>, Long>comparingByValue().reversed()).limit(limit)
      .forEach(entry -> text.append("| ").append(entry.getValue()).append(" | ").append(entry.getKey().get(0))
        .append(" | `").append(entry.getKey().get(1).replace("|", "/")).append("` |\n"));
    return text.append("\nSamples in all: ").append(total).append(" (1 ms of CPU each).\n").toString();
  }

  private static List<String> lastFrames(String[] frames, int count) {
    var tail = new ArrayList<String>();
    for (int i = frames.length - 1; i >= 1 && tail.size() < count; i--) {
      if (!frames[i].endsWith("_[k]")) {
        tail.add(frames[i]);
      }
    }
    return tail;
  }

  static String report(List<String> args, List<Variant> variants, List<Run> runs, int settle, int window,
    int warmRequests, String profiles) {
    var text = new StringBuilder("# Idle cost\n\n`load/idle.sh ").append(String.join(" ", args)).append("`: the ")
      .append("demo's platform (real Keycloak and Kafka broker, the module and the managers stubbed), one packaged ")
      .append("sidecar at a time on the image's JVM options (`").append(ShippedJvmOptions.line()).append("`), ")
      .append(warmRequests).append(" requests (allowed and denied) after it is ready, ").append(settle)
      .append(" s of quiet, then ").append(window).append(" s measured: CPU ticks (1/").append(TICKS_PER_SECOND)
      .append(" s) of the process and of each thread from /proc. Runs interleaved in the order below.\n\n")
      .append("| run | variant | ticks | CPU s per idle minute | cores | threads | load average before / after |\n")
      .append("| --- | --- | ---: | ---: | ---: | ---: | --- |\n");
    for (int i = 0; i < runs.size(); i++) {
      var run = runs.get(i);
      text.append(String.format(Locale.ROOT, "| %d | %s | %d | %.2f | %.4f | %d | %s / %s |%n", i + 1,
        run.variant().label(), run.processTicks(), run.cores(window) * 60, run.cores(window), run.threadCount(),
        run.loadBefore(), run.loadAfter()));
    }
    text.append("\n| variant | mean cores | mean CPU s per idle minute | 120 sidecars, cores |\n")
      .append("| --- | ---: | ---: | ---: |\n");
    for (var variant : variants) {
      var mean = runs.stream().filter(run -> run.variant() == variant).mapToDouble(run -> run.cores(window))
        .average();
      if (mean.isPresent()) {
        text.append(String.format(Locale.ROOT, "| %s | %.4f | %.2f | %.2f |%n", variant.label(),
          mean.getAsDouble(), mean.getAsDouble() * 60, mean.getAsDouble() * 120));
      }
    }
    text.append("\nTicks per thread name over the window (a pool's threads share a name: the kernel keeps 15 "
      + "characters; the count of threads in brackets):\n\n| thread |");
    runs.forEach(run -> text.append(' ').append(run.variant().label()).append(" |"));
    text.append("\n| --- |").append(" ---: |".repeat(runs.size())).append('\n');
    var names = new LinkedHashMap<String, Long>();
    runs.forEach(run -> run.byThread().forEach((name, ticks) -> names.merge(name, ticks.ticks(), Long::sum)));
    names.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()
      .thenComparing(Map.Entry.comparingByKey()))
      .forEach(entry -> {
        text.append("| `").append(entry.getKey()).append("` |");
        for (var run : runs) {
          var ticks = run.byThread().get(entry.getKey());
          text.append(ticks == null
            ? " - |"
            : " " + ticks.ticks() + (ticks.threads() > 1
              ? " (" + ticks.threads()
                + ")"
              : "") + " |");
        }
        text.append('\n');
      });
    text.append("| threads that ended in the window |");
    runs.forEach(run -> text.append(' ').append(run.endedThreadTicks()).append(" |"));
    text.append("\n\nVariants:\n\n");
    variants.forEach(variant -> text.append("- ").append(variant.label()).append(": `").append(variant.jar())
      .append("`").append(variant.config().describe().isEmpty() ? "" : ", `" + variant.config().describe() + "`")
      .append('\n'));
    if (!profiles.isEmpty()) {
      text.append("\n## Where the idle CPU goes (async-profiler, a separate run per variant)\n").append(profiles);
    }
    return text.toString();
  }

  private record NamedTicks(String name, long ticks) {
  }

  private static long processTicks(long pid) throws IOException {
    return ticks(Files.readString(Path.of("/proc", String.valueOf(pid), "stat")));
  }

  /** utime + stime of each live thread by id, with its name. */
  private static Map<Long, NamedTicks> threadTicks(long pid) throws IOException {
    var result = new HashMap<Long, NamedTicks>();
    try (var tasks = Files.list(Path.of("/proc", String.valueOf(pid), "task"))) {
      for (var task : tasks.sorted(Comparator.naturalOrder()).toList()) {
        try {
          result.put(Long.parseLong(task.getFileName().toString()), new NamedTicks(
            Files.readString(task.resolve("comm")).trim(), ticks(Files.readString(task.resolve("stat")))));
        } catch (IOException e) {
          // the thread ended between the listing and the read
        }
      }
    }
    return result;
  }

  /** utime + stime from a stat line; the name in brackets may hold spaces, so fields count from its end. */
  private static long ticks(String stat) {
    var fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }

  private static long ticksPerSecond() {
    try {
      var process = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
      var output = new String(process.getInputStream().readAllBytes()).trim();
      process.waitFor();
      return Long.parseLong(output);
    } catch (IOException | NumberFormatException e) {
      return 100;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 100;
    }
  }

  private static void log(String format, Object... args) {
    System.out.printf("[idle] " + format + "%n", args);
  }
}
