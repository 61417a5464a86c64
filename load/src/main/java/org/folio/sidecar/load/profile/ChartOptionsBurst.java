package org.folio.sidecar.load.profile;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.folio.sidecar.load.cli.Args;
import org.folio.sidecar.load.cli.Command;
import org.folio.sidecar.testkit.SidecarProcess;
import org.folio.sidecar.testkit.TestPlatform;

/**
 * The sidecar's memory from its image under folio-helm-v2's options: one container per option set (a 256 MiB limit
 * as the chart's, the chart's JAVA_OPTS and body limit, the demo's Keycloak and stub module), started, left idle,
 * then given bursts of concurrent uploads just under the chart's 10 MiB body limit. For each set: peak RSS of the
 * JVM (VmHWM of the container's first process) at idle and after the bursts, statuses, an OOM kill (podman's
 * state), OutOfMemoryError and the [error]/WARN lines of its start. Run by load/chart-options.sh, which runs the
 * image (DEMO_SIDECAR_COMMAND, container SIDECAR_CONTAINER). Loopback only, bounded in count.
 */
public final class ChartOptionsBurst {

  private static final Duration LIMIT = Duration.ofSeconds(120);
  // a bound for the first allowed request after a start: at load averages of 60 two minutes were not enough
  private static final Duration FIRST_200 = Duration.ofMinutes(5);

  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
    .connectTimeout(Duration.ofSeconds(5)).build();
  private final String container = System.getenv("SIDECAR_CONTAINER");

  private ChartOptionsBurst() {
  }

  public static void main(String[] args) {
    Command.exit(args, options -> new ChartOptionsBurst().run(Args.intOption(options, "--uploads", 100),
      Args.intOption(options, "--size-mb", 9), Args.intOption(options, "--bursts", 3),
      Args.intOption(options, "--idle-seconds", 10),
      Path.of(Args.option(options, "--out").orElse("target/chart-options")),
      Args.option(options, "--sets").orElse("1,2,3,4")));
  }

  /** The option sets: the chart's JAVA_OPTS with and without the image's floor, with the advised additions. */
  private static Map<String, Map<String, String>> variants(String chartOpts) {
    var chart = Map.of("JAVA_OPTS", chartOpts, "QUARKUS_HTTP_LIMITS_MAX_BODY_SIZE", "10240K");
    var sets = new LinkedHashMap<String, Map<String, String>>();
    sets.put("chart's JAVA_OPTS + the image's floor (this image)", chart);
    sets.put("chart's JAVA_OPTS alone (the image before: no floor)", with(chart, "JAVA_OPTS_FLOOR",
      "-Djava.io.tmpdir=/tmp -Djava.util.logging.manager=org.jboss.logmanager.LogManager"));
    sets.put("chart's JAVA_OPTS + floor + JAVA_OPTS_APPEND=\"-XX:TieredStopAtLevel=1\", MALLOC_ARENA_MAX=2",
      with(with(chart, "JAVA_OPTS_APPEND", "-XX:TieredStopAtLevel=1"), "MALLOC_ARENA_MAX", "2"));
    sets.put("no JAVA_OPTS: the image's own options (Serial)", Map.of("QUARKUS_HTTP_LIMITS_MAX_BODY_SIZE", "10240K"));
    return sets;
  }

  private static Map<String, String> with(Map<String, String> base, String name, String value) {
    var map = new LinkedHashMap<>(base);
    map.put(name, value);
    return map;
  }

  private int run(int uploads, int sizeMb, int bursts, int idleSeconds, Path out, String sets) throws Exception {
    var chosen = List.of(sets.split(","));
    var chartOpts = Files.readAllLines(Path.of("k8s/folio-helm-v2-sidecar.env")).stream()
      .filter(line -> line.startsWith("JAVA_OPTS=")).map(line -> line.substring("JAVA_OPTS=".length())).findFirst()
      .orElseThrow();
    var platform = TestPlatform.get();
    var alpha = platform.alpha();
    var token = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
    var body = new byte[sizeMb * 1024 * 1024];
    new Random(7).nextBytes(body);
    Files.createDirectories(out);
    var table = new StringBuilder(String.format(Locale.ROOT,
      "| option set | VmHWM after start + %d s idle | VmHWM after %d × %d concurrent %d-MiB uploads | VmRSS at the end "
        + "| statuses | OOM kill | OutOfMemoryError | [error]/WARN lines at start |%n| --- | ---: | ---: | ---: | --- "
        + "| --- | --- | --- |%n",
      idleSeconds, bursts, uploads, sizeMb));
    int failed = 0;
    int index = 0;
    for (var variant : variants(chartOpts).entrySet()) {
      index++;
      if (!chosen.contains(String.valueOf(index))) {
        continue;
      }
      var log = out.resolve("variant-" + index + ".log");
      var sidecar = SidecarProcess.start(platform, ProcessBuilder.Redirect.to(log.toFile()), variant.getValue());
      var statuses = new TreeMap<Integer, Integer>();
      long idle;
      long peak;
      long end;
      try {
        awaitStatus(sidecar.baseUrl() + "/uploads", token, "{}".getBytes(), 200);
        Thread.sleep(Duration.ofSeconds(idleSeconds));
        int pid = Integer.parseInt(podman("inspect", "--format", "{{.State.Pid}}", container));
        idle = status(pid, "VmHWM");
        for (int burst = 0; burst < bursts; burst++) {
          var calls = new ArrayList<CompletableFuture<Integer>>();
          for (int i = 0; i < uploads; i++) {
            calls.add(http.sendAsync(upload(sidecar.baseUrl() + "/uploads", token, body),
              HttpResponse.BodyHandlers.discarding()).thenApply(HttpResponse::statusCode)
              .exceptionally(error -> 0));
          }
          calls.forEach(call -> statuses.merge(call.join(), 1, Integer::sum));
          // the stub module keeps every request it got: 900 MB a burst
          platform.module().resetRequests();
        }
        peak = status(pid, "VmHWM");
        end = status(pid, "VmRSS");
      } finally {
        sidecar.close();
      }
      // the container is kept after its end (no --rm) so that its state says whether the kernel killed it
      boolean oomKilled = Boolean.parseBoolean(podman("inspect", "--format", "{{.State.OOMKilled}}", container));
      podman("rm", "-f", container);
      var output = Files.readString(log);
      var startLines = output.lines().takeWhile(line -> !line.contains("started in"))
        .filter(line -> line.contains("[error]") || line.contains("[warning]") || line.contains(" WARN ")
          || line.contains("VM warning"))
        .toList();
      boolean oome = output.contains("OutOfMemoryError");
      if (oomKilled || oome || statuses.keySet().stream().anyMatch(status -> status != 200)) {
        failed++;
      }
      table.append(String.format(Locale.ROOT, "| %s | %.1f MiB | %.1f MiB | %.1f MiB | %s | %s | %s | %s |%n",
        variant.getKey(), idle / 1024.0, peak / 1024.0, end / 1024.0, statuses, oomKilled ? "yes" : "no",
        oome ? "yes" : "no", startLines.isEmpty() ? "none" : String.join("<br>", startLines)));
      System.out.print(table);
    }
    Files.writeString(out.resolve("measurements-" + sets.replace(',', '-') + ".md"), table);
    return failed == 0 ? 0 : 1;
  }

  private static HttpRequest upload(String url, String token, byte[] body) {
    return HttpRequest.newBuilder(URI.create(url)).timeout(LIMIT).header("x-okapi-tenant", "alpha")
      .header("x-okapi-token", token).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
  }

  private void awaitStatus(String url, String token, byte[] body, int expected) throws InterruptedException {
    long deadline = System.nanoTime() + FIRST_200.toNanos();
    while (System.nanoTime() < deadline) {
      try {
        if (http.send(upload(url, token, body), HttpResponse.BodyHandlers.discarding()).statusCode() == expected) {
          return;
        }
      } catch (IOException e) {
        // not up yet
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("no " + expected + " from " + url + " within " + FIRST_200);
  }

  /** A memory figure of /proc/PID/status, in KiB; -1 when the process is gone (killed). */
  private static long status(int pid, String field) throws IOException {
    if (!Files.exists(Path.of("/proc/" + pid + "/status"))) {
      return -1;
    }
    return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream().filter(line -> line.startsWith(field + ":"))
      .map(line -> Long.parseLong(line.replaceAll("\\D", ""))).findFirst().orElseThrow();
  }

  private static String podman(String... args) throws IOException, InterruptedException {
    var command = new ArrayList<>(List.of("podman", "--runtime", "runc", "--cgroup-manager=cgroupfs"));
    command.addAll(List.of(args));
    var process = new ProcessBuilder(command).redirectErrorStream(true).start();
    var output = new String(process.getInputStream().readAllBytes()).strip();
    process.waitFor();
    return output;
  }
}
