package org.folio.sidecar.load.profile;

import io.vertx.core.Vertx;
import java.io.IOException;
import java.lang.module.ModuleFinder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import org.folio.sidecar.load.cli.Args;
import org.folio.sidecar.load.cli.Command;
import org.folio.sidecar.load.fleet.ShippedJvmOptions;
import org.folio.sidecar.load.fleet.SidecarConfig;
import org.folio.sidecar.load.measure.LoadAverage;
import org.folio.sidecar.testkit.FreePorts;
import org.folio.sidecar.testkit.GrantingKeycloak;
import org.folio.sidecar.testkit.KafkaBroker;
import org.folio.sidecar.testkit.TcpProxy;

/**
 * The classes a packaged sidecar loads, by the dependency they come from (load/classes.sh): the sidecar runs with
 * the image's JVM options, {@code -Xlog:class+load} and native memory tracking, with a real Kafka broker (its event
 * consumer and the health check's client connected) and MemoryProfile's workload (a Keycloak stub that grants at
 * once, a module that answers at once, a cache-filling phase, the hit path, a metrics scrape). The histogram is
 * taken once the sidecar is ready and once the traffic is over; beside it, the metaspace and the RSS. Given a
 * second build ({@code --before DIR}), both run in the same harness one after the other, for a before/after table.
 */
public final class ClassHistogram {

  private static final Pattern LOADED = Pattern.compile("\\[class,load\\s*\\] (\\S+) source: (.*)$");
  private static final Pattern NMT_CLASSES = Pattern.compile("\\(classes #(\\d+)\\)");
  private static final Pattern VERSION = Pattern.compile("-\\d[^/]*\\.jar$");
  /** Artifacts (Quarkus' lib/main names them groupId.artifactId-version.jar) by the dependency they belong to. */
  private static final List<Map.Entry<String, String>> GROUPS = List.of(
    Map.entry("org.apache.kafka.", "kafka-clients"),
    Map.entry("io.netty.", "netty"),
    Map.entry("io.vertx.", "vertx"),
    Map.entry("io.smallrye.reactive.", "mutiny (vertx bindings)"),
    Map.entry("io.quarkus.", "quarkus"),
    Map.entry("io.smallrye.", "smallrye"),
    Map.entry("io.micrometer.", "micrometer"),
    Map.entry("io.prometheus.", "prometheus simpleclient"),
    Map.entry("com.fasterxml.jackson.", "jackson"),
    Map.entry("com.github.ben-manes.caffeine.", "caffeine"),
    Map.entry("software.amazon.awssdk.", "aws sdk"),
    Map.entry("org.bitbucket.b_c.jose4j", "jose4j"),
    Map.entry("io.opentelemetry.", "opentelemetry"),
    Map.entry("org.jboss.", "jboss (logging, threads)"),
    Map.entry("org.eclipse.parsson.", "jakarta json (parsson)"),
    Map.entry("jakarta.json.", "jakarta json (parsson)"),
    Map.entry("jakarta.", "jakarta apis"),
    Map.entry("org.eclipse.microprofile.", "microprofile apis"),
    Map.entry("folio-caching-sidecar", "the sidecar"),
    Map.entry("quarkus/generated-bytecode", "quarkus (generated)"));

  /** One sidecar build to measure: a label and its quarkus-app directory. */
  record Build(String label, Path app) {
  }

  /** What the log and the JVM showed at one checkpoint. */
  record Snapshot(Map<String, Integer> byGroup, Map<String, Integer> byArtifact, int classes, long rss,
    Map<String, Long> nmtCommitted, long nmtClasses) {
  }

  /** One build's two snapshots and the workload's memory figures. */
  record Result(Build build, Snapshot started, Snapshot loaded, MemoryProfile.Row row) {
  }

  private ClassHistogram() {
  }

  public static void main(String[] args) {
    Command.exit(args, ClassHistogram::run);
  }

  private static int run(List<String> args) throws Exception {
    var project = Path.of("").toAbsolutePath();
    var builds = new ArrayList<Build>();
    Args.option(args, "--before").ifPresent(dir -> builds.add(new Build("before", Path.of(dir))));
    builds.add(new Build(builds.isEmpty() ? "sidecar" : "after", Args.option(args, "--after")
      .map(Path::of).orElse(project.resolve("sidecar/target/quarkus-app"))));
    var out = Args.out(args, Args.now("yyyyMMdd-HHmm") + "-classes");
    var logs = out.resolve("logs");
    Files.createDirectories(logs);
    int users = Args.intOption(args, "--users", 20_000);
    int fillSeconds = Args.intOption(args, "--fill-seconds", 30);
    int hitSeconds = Args.intOption(args, "--seconds", 15);
    var topics = List.of("folio.discovery", "folio.entitlement",
      "folio." + MemoryProfile.TENANT + ".mod-login-keycloak.logout");
    var bootstrap = KafkaBroker.start(topics, new TcpProxy(FreePorts.next()));
    var kafkaPort = bootstrap.substring(bootstrap.lastIndexOf(':') + 1);
    log("Kafka broker at %s", bootstrap);
    var vertx = Vertx.vertx();
    try (var keycloak = GrantingKeycloak.start(MemoryProfile.TENANT)) {
      var workload = MemoryProfile.Workload.prepare(vertx, keycloak, builds.getLast().app().resolve("quarkus-run.jar"),
        users, Args.intOption(args, "--connections", 64), Args.intOption(args, "--warm-up", 10),
        fillSeconds, hitSeconds, Args.intOption(args, "--idle-seconds", 5), logs);
      var results = new ArrayList<Result>();
      for (var build : builds) {
        log("%s: %s", build.label(), build.app());
        results.add(measure(workload.withJar(build.app().resolve("quarkus-run.jar")), build, kafkaPort, logs));
      }
      var report = out.resolve("report.md");
      Files.writeString(report, report(args, users, fillSeconds, hitSeconds, results));
      System.out.println(Files.readString(report));
      log("written %s", report);
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
    return 0;
  }

  private static Result measure(MemoryProfile.Workload workload, Build build, String kafkaPort, Path logs)
    throws Exception {
    var classLog = logs.resolve("class-load-" + build.label() + ".log");
    Files.deleteIfExists(classLog);
    var options = new ArrayList<>(ShippedJvmOptions.list());
    options.add("-Xlog:class+load=info:file=" + classLog);
    var config = new SidecarConfig(build.label(), options, Map.of("KAFKA_HOST", "localhost",
      "KAFKA_PORT", kafkaPort));
    var index = artifactsOf(build.app());
    var snapshots = new ArrayList<Snapshot>();
    var row = workload.measure(config, new MemoryProfile.Checkpoints() {
      @Override
      public void started(ProcessHandle sidecar) throws Exception {
        snapshots.add(snapshot(sidecar, classLog, index, logs.resolve("started-" + build.label())));
      }

      @Override
      public void loaded(ProcessHandle sidecar) throws Exception {
        snapshots.add(snapshot(sidecar, classLog, index, logs.resolve("loaded-" + build.label())));
      }
    });
    return new Result(build, snapshots.getFirst(), snapshots.getLast(), row);
  }

  /** The classes logged so far by group and artifact, then (loading a few classes of its own) NMT and RSS. */
  private static Snapshot snapshot(ProcessHandle sidecar, Path classLog, Map<String, String> index, Path prefix)
    throws IOException, InterruptedException {
    var lines = Files.readAllLines(classLog);
    long rss = MemoryProfile.rss(sidecar);
    var byArtifact = new HashMap<String, Integer>();
    int classes = 0;
    for (var line : lines) {
      var matcher = LOADED.matcher(line);
      if (matcher.find()) {
        byArtifact.merge(artifactOf(matcher.group(1), matcher.group(2), index), 1, Integer::sum);
        classes++;
      }
    }
    var byGroup = new HashMap<String, Integer>();
    byArtifact.forEach((artifact, count) -> byGroup.merge(group(artifact), count, Integer::sum));
    var nmt = MemoryProfile.jcmd(sidecar.pid(), "VM.native_memory", "summary", "scale=KB");
    Files.writeString(Path.of(prefix + "-nmt.txt"), nmt);
    Files.writeString(Path.of(prefix + "-metaspace.txt"), MemoryProfile.jcmd(sidecar.pid(), "VM.metaspace"));
    var committed = new LinkedHashMap<String, Long>();
    var category = MemoryProfile.NMT.matcher(nmt);
    while (category.find()) {
      committed.put(category.group(1).trim(), Long.parseLong(category.group(3)));
    }
    var nmtClasses = NMT_CLASSES.matcher(nmt);
    return new Snapshot(byGroup, byArtifact, classes, rss, committed,
      nmtClasses.find() ? Long.parseLong(nmtClasses.group(1)) : 0);
  }

  /**
   * Every class of the build's jars by name, to the jar's name (lib/main's {@code groupId.artifactId-version.jar},
   * the sidecar's own app jar); Quarkus' transformed classes keep the artifact they came from.
   */
  private static Map<String, String> artifactsOf(Path app) throws IOException {
    var index = new HashMap<String, String>();
    var jars = new ArrayList<Path>();
    for (var dir : List.of("app", "lib/boot", "lib/main", "quarkus")) {
      try (var files = Files.list(app.resolve(dir))) {
        files.filter(file -> file.toString().endsWith(".jar")).sorted().forEach(jars::add);
      }
    }
    for (var jar : jars) {
      var name = app.relativize(jar).toString();
      var artifact = name.startsWith("quarkus/")
        ? VERSION.matcher(name).replaceAll("").replace(".jar", "")
        : VERSION.matcher(jar.getFileName().toString()).replaceAll("");
      try (var file = new JarFile(jar.toFile())) {
        file.stream().map(entry -> entry.getName()).filter(entry -> entry.endsWith(".class"))
          .map(entry -> entry.substring(0, entry.length() - ".class".length()).replace('/', '.'))
          .forEach(className -> index.putIfAbsent(className, artifact));
      }
    }
    return index;
  }

  /** The jar a loaded class came from; a JDK class's module; a hidden class (a lambda, a proxy) its host's. */
  private static String artifactOf(String className, String source, Map<String, String> index) {
    var name = className;
    int hidden = name.indexOf("$$Lambda");
    if (hidden > 0) {
      name = name.substring(0, hidden);
    } else if (name.contains("/0x")) {
      name = name.substring(0, name.indexOf("/0x"));
    }
    var artifact = index.get(name);
    if (artifact != null) {
      return artifact;
    }
    int dot = name.lastIndexOf('.');
    var module = JdkModules.PACKAGES.get(dot > 0 ? name.substring(0, dot) : "");
    if (module != null) {
      return "jdk:" + module;
    }
    if (source.startsWith("jrt:/")) {
      return "jdk:" + source.substring("jrt:/".length());
    }
    return "other: " + (source.startsWith("__") ? source : Path.of(source).getFileName());
  }

  private static String group(String artifact) {
    if (artifact.startsWith("jdk:")) {
      return artifact.startsWith("jdk:java.base") ? "jdk: java.base" : "jdk: other modules";
    }
    return GROUPS.stream().filter(entry -> artifact.startsWith(entry.getKey())).map(Map.Entry::getValue)
      .findFirst().orElse(artifact);
  }

  /** The JDK's packages by module, read once. */
  private static final class JdkModules {

    static final Map<String, String> PACKAGES = read();

    private static Map<String, String> read() {
      var packages = new HashMap<String, String>();
      ModuleFinder.ofSystem().findAll().forEach(reference -> reference.descriptor().packages()
        .forEach(name -> packages.put(name, reference.descriptor().name())));
      return packages;
    }
  }

  private static String report(List<String> args, int users, int fillSeconds, int hitSeconds, List<Result> results) {
    var text = new StringBuilder("# Classes loaded, by dependency\n\n`load/classes.sh ")
      .append(String.join(" ", args)).append("`: ");
    results.forEach(result -> text.append("**").append(result.build().label()).append("** `")
      .append(result.build().app()).append("`; "));
    text.append("one packaged sidecar at a time with the image's JVM options (`").append(ShippedJvmOptions.line())
      .append("`), `-Xlog:class+load` and `-XX:NativeMemoryTracking=summary`, a real Kafka broker (KRaft, in the "
        + "harness: the event consumer and the health check connected), a Keycloak stub that grants at once, a "
        + "module answering at once. **Start**: once `/admin/health/ready` answered 200. **After traffic**: ")
      .append(users).append(" users' sessions over 5 endpoints in a ").append(fillSeconds)
      .append("-s cache-filling phase, the hit path for ").append(hitSeconds)
      .append(" s, a `/q/metrics` scrape. Classes are counted from the log (a lambda or proxy with its host "
        + "class's jar; JDK classes by module); the jar of a class is the build's own.\n\n");
    var groups = new TreeMap<String, Integer>();
    results.forEach(result -> result.loaded().byGroup().forEach((group, count) -> groups.merge(group, count,
      Math::max)));
    var ordered = groups.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
      .map(Map.Entry::getKey).toList();
    text.append("## Classes by dependency\n\n| dependency |");
    results.forEach(result -> text.append(" ").append(result.build().label()).append(": start | ")
      .append(result.build().label()).append(": after traffic |"));
    if (results.size() == 2) {
      text.append(" after traffic, after - before |");
    }
    text.append("\n| --- |").append(" ---: |".repeat(results.size() * 2 + (results.size() == 2 ? 1 : 0)))
      .append('\n');
    for (var group : ordered) {
      text.append("| ").append(group).append(" |");
      results.forEach(result -> text.append(" ").append(result.started().byGroup().getOrDefault(group, 0))
        .append(" | ").append(result.loaded().byGroup().getOrDefault(group, 0)).append(" |"));
      if (results.size() == 2) {
        text.append(" ").append(results.get(1).loaded().byGroup().getOrDefault(group, 0)
          - results.get(0).loaded().byGroup().getOrDefault(group, 0)).append(" |");
      }
      text.append('\n');
    }
    text.append("| **all** |");
    results.forEach(result -> text.append(" **").append(result.started().classes()).append("** | **")
      .append(result.loaded().classes()).append("** |"));
    if (results.size() == 2) {
      text.append(" **").append(results.get(1).loaded().classes() - results.get(0).loaded().classes())
        .append("** |");
    }
    text.append("\n\n## Memory\n\nMiB; NMT's committed memory by category (Metaspace: class metadata; Shared "
      + "class space: the CDS archive; Symbol: the symbol table), the classes NMT counts, RSS.\n\n| figure |");
    results.forEach(result -> text.append(" ").append(result.build().label()).append(": start | ")
      .append(result.build().label()).append(": after traffic |"));
    text.append("\n| --- |").append(" ---: |".repeat(results.size() * 2)).append('\n');
    for (var category : List.of("Metaspace", "Class", "Shared class space", "Symbol", "Code")) {
      text.append("| NMT ").append(category).append(" |");
      results.forEach(result -> text.append(String.format(Locale.ROOT, " %.1f | %.1f |",
        result.started().nmtCommitted().getOrDefault(category, 0L) / 1024.0,
        result.loaded().nmtCommitted().getOrDefault(category, 0L) / 1024.0)));
      text.append('\n');
    }
    text.append("| classes (NMT) |");
    results.forEach(result -> text.append(" ").append(result.started().nmtClasses()).append(" | ")
      .append(result.loaded().nmtClasses()).append(" |"));
    text.append("\n| RSS |");
    results.forEach(result -> text.append(" ").append(result.started().rss() >> 20).append(" | ")
      .append(result.loaded().rss() >> 20).append(" |"));
    text.append("\n\nThe workload's own figures (MemoryProfile's table; RSS after a full GC and the live heap were "
      + "read after the checkpoint, attached by JMX):\n").append(MemoryProfile.table(
        results.stream()
          .map(Result::row).toList()));
    text.append("\n## Classes by artifact after traffic (the 40 largest)\n\n| artifact |");
    results.forEach(result -> text.append(" ").append(result.build().label()).append(" |"));
    text.append("\n| --- |").append(" ---: |".repeat(results.size())).append('\n');
    var artifacts = new HashMap<String, Integer>();
    results.forEach(result -> result.loaded().byArtifact().forEach((artifact, count) -> artifacts.merge(artifact,
      count, Math::max)));
    artifacts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()
      .thenComparing(Map.Entry.comparingByKey())).limit(40).map(Map.Entry::getKey).forEach(artifact -> {
        text.append("| ").append(artifact).append(" |");
        results.forEach(result -> text.append(" ").append(result.loaded().byArtifact().getOrDefault(artifact, 0))
          .append(" |"));
        text.append('\n');
      });
    text.append("\nLoad average at the end: ").append(LoadAverage.now()).append(".\n");
    return text.toString();
  }

  private static void log(String format, Object... args) {
    System.out.printf("[classes] " + format + "%n", args);
  }
}
