package org.folio.sidecar.load.measure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The hit path's capacity: wrk holding N connections open against one path (the module directly, its sidecar with
 * a warm cache, nginx proxy_pass), each answer followed at once by the next request. Where the open-loop phase asks
 * "how much does a pass add at a fixed rate", this asks "how many requests per second, at what latency, and at
 * what CPU cost".
 */
public final class ClosedLoop {

  /** One path at one connection count. Latencies in milliseconds; CPU and RSS only for the sidecar. */
  public record Point(String path, int connections, double requestsPerSecond, double p50Millis, double p99Millis,
    long failed, double sidecarCpuPerThousand, long sidecarRssBytes) {
  }

  /** What one request carries: the user of the open-loop phase, with a token fetched fresh for each point. */
  public record Caller(String tenant, String userId, Supplier<String> token) {
  }

  public static final List<Integer> CONNECTIONS = List.of(16, 64, 256);
  private static final Pattern RPS = Pattern.compile("Requests/sec:\\s+([\\d.]+)");
  private static final Pattern PERCENTILE = Pattern.compile("^\\s+(50|99)%\\s+([\\d.]+)(us|ms|s)\\s*$",
    Pattern.MULTILINE);
  private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses:\\s+(\\d+)");
  private static final Pattern SOCKET_ERRORS = Pattern.compile(
    "Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");

  private ClosedLoop() {
  }

  /** Whether wrk is installed; without it the phase reads "not run". */
  public static Optional<String> wrk() {
    for (var candidate : List.of("/usr/bin/wrk", "/usr/local/bin/wrk")) {
      if (Files.isExecutable(Path.of(candidate))) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /**
   * Every path at every connection count, paths alternating within each count so that none always runs on the
   * warmer machine. {@code sidecar} is the sidecar's process, metered while its path runs.
   */
  public static List<Point> run(String wrk, Map<String, String> urls, Caller caller, ProcessHandle sidecar, int seconds)
    throws IOException, InterruptedException {
    var points = new ArrayList<Point>();
    for (var connections : CONNECTIONS) {
      for (var path : urls.entrySet()) {
        boolean isSidecar = path.getKey().equals("sidecar");
        var meter = isSidecar ? ProcessMeter.start(List.of(sidecar)) : null;
        var output = wrk(wrk, path.getValue() + "/users/" + caller.userId(), caller, connections, seconds);
        var usage = meter == null ? null : meter.stop();
        points.add(parse(path.getKey(), connections, seconds, output, usage));
      }
    }
    return points;
  }

  public static String wrk(String wrk, String url, Caller caller, int connections, int seconds)
    throws IOException, InterruptedException {
    var process = new ProcessBuilder(wrk, "-t", "2", "-c", String.valueOf(connections), "-d", seconds + "s",
      "--latency", "-H", "x-okapi-tenant: " + caller.tenant(), "-H", "x-okapi-token: " + caller.token().get(), url)
      .redirectErrorStream(true).start();
    var output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    process.waitFor();
    return output;
  }

  /**
   * A wrk script whose threads each know their number (0, 1, ...) as the global {@code variable}, set by wrk's
   * {@code setup} before the thread's {@code init} runs: how a script splits its work between wrk's threads.
   */
  public static String threadNumbered(String variable, String script) {
    return """
      local threads = 0
      function setup(thread)
        thread:set("%s", threads)
        threads = threads + 1
      end
      """.formatted(variable) + script;
  }

  public static Point parse(String path, int connections, int seconds, String output, ProcessMeter.Usage sidecar) {
    var rps = RPS.matcher(output);
    double requestsPerSecond = rps.find() ? Double.parseDouble(rps.group(1)) : 0;
    double p50 = Double.NaN;
    double p99 = Double.NaN;
    var percentiles = PERCENTILE.matcher(output);
    while (percentiles.find()) {
      double value = Double.parseDouble(percentiles.group(2)) * switch (percentiles.group(3)) {
        case "us" -> 0.001;
        case "s" -> 1000;
        default -> 1;
      };
      if (percentiles.group(1).equals("50")) {
        p50 = value;
      } else {
        p99 = value;
      }
    }
    long failed = 0;
    var non2xx = NON_2XX.matcher(output);
    if (non2xx.find()) {
      failed += Long.parseLong(non2xx.group(1));
    }
    var errors = SOCKET_ERRORS.matcher(output);
    if (errors.find()) {
      for (int group = 1; group <= 4; group++) {
        failed += Long.parseLong(errors.group(group));
      }
    }
    double requests = requestsPerSecond * seconds;
    return new Point(path, connections, requestsPerSecond, p50, p99, failed,
      sidecar == null || requests == 0 ? Double.NaN : sidecar.cpuSeconds() * 1000 / requests,
      sidecar == null ? 0 : sidecar.peakRssBytes());
  }
}
