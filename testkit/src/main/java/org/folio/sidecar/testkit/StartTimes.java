package org.folio.sidecar.testkit;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * How long the sidecar takes to start, against the demo's Keycloak, tenants and stub module: {@code --runs N}
 * sidecars one after another (DEMO_SIDECAR_COMMAND runs them from the image), each timed from its process start
 * to the first 200 on {@code /admin/health} and to the first allowed request proxied with 200, beside the
 * "started in" Quarkus prints. {@code --traffic N} then sends N rounds of the demo's calls (allowed, denied, bad
 * token, egress) before stopping it: image/build.sh trains the AOT cache this way. Run by image/start-times.sh.
 */
public final class StartTimes {

  private static final Pattern STARTED_IN = Pattern.compile("started in (\\d+\\.\\d+)s");
  // every wait is bounded: a sidecar that does not answer within this fails the run instead of hanging CI
  private static final Duration LIMIT = Duration.ofSeconds(60);
  private static final Duration POLL = Duration.ofMillis(10);

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private StartTimes() {
  }

  public static void main(String[] args) {
    int exit;
    try {
      var options = Arrays.asList(args);
      exit = new StartTimes().run(option(options, "--runs", 5), option(options, "--traffic", 0),
        Path.of(options.contains("--logs") ? options.get(options.indexOf("--logs") + 1) : "target/start-times"));
    } catch (Exception e) {
      e.printStackTrace();
      exit = 1;
    }
    // WireMock, Kafka and Vert.x threads would keep the process alive
    System.exit(exit);
  }

  private static int option(List<String> options, String name, int fallback) {
    int at = options.indexOf(name);
    return at < 0 ? fallback : Integer.parseInt(options.get(at + 1));
  }

  private int run(int runs, int traffic, Path logs) throws Exception {
    var platform = TestPlatform.get();
    var alpha = platform.alpha();
    var allowed = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
    var denied = platform.tokens().login(alpha, alpha.denied()).getString("access_token");
    Files.createDirectories(logs);
    var startedIn = new ArrayList<Double>();
    var health = new ArrayList<Double>();
    var proxied = new ArrayList<Double>();
    for (int i = 1; i <= runs; i++) {
      var log = logs.resolve("run-" + i + ".log");
      long start = System.nanoTime();
      var sidecar = SidecarProcess.start(platform, ProcessBuilder.Redirect.to(log.toFile()));
      try {
        health.add(secondsUntil200(start, sidecar.baseUrl() + "/admin/health", null, null));
        proxied.add(secondsUntil200(start, sidecar.baseUrl() + "/items/1", "alpha", allowed));
        for (int round = 0; round < traffic; round++) {
          call(sidecar.baseUrl() + "/items/1", "alpha", allowed);
          call(sidecar.baseUrl() + "/items/1", "alpha", denied);
          call(sidecar.baseUrl() + "/items/1", "alpha", "not.a.token");
          call(sidecar.baseUrl() + "/users/1", "alpha", allowed);
        }
      } finally {
        sidecar.close();
      }
      var matcher = STARTED_IN.matcher(Files.readString(log));
      startedIn.add(matcher.find() ? Double.parseDouble(matcher.group(1)) : Double.NaN);
      System.out.printf(Locale.ROOT, "run %d: started in %.3f s, first health 200 %.3f s, first proxied 200 %.3f s%n",
        i, startedIn.getLast(), health.getLast(), proxied.getLast());
    }
    System.out.println(summary("started in", startedIn));
    System.out.println(summary("first health 200", health));
    System.out.println(summary("first proxied 200", proxied));
    return startedIn.stream().anyMatch(seconds -> seconds.isNaN()) ? 1 : 0;
  }

  private double secondsUntil200(long start, String url, String tenant, String token) throws InterruptedException {
    long deadline = start + LIMIT.toNanos();
    while (System.nanoTime() < deadline) {
      if (call(url, tenant, token) == 200) {
        return (System.nanoTime() - start) / 1e9;
      }
      Thread.sleep(POLL);
    }
    throw new IllegalStateException("no 200 from " + url + " within " + LIMIT);
  }

  /** The status, or 0 when nothing answers yet. */
  private int call(String url, String tenant, String token) throws InterruptedException {
    var request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5));
    if (tenant != null) {
      request.header("x-okapi-tenant", tenant);
    }
    if (token != null) {
      request.header("x-okapi-token", token);
    }
    try {
      return http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return 0;
    }
  }

  private static String summary(String what, List<Double> seconds) {
    var sorted = seconds.stream().sorted().toList();
    return String.format(Locale.ROOT, "%s: median %.3f s, range %.3f-%.3f s (n=%d)", what,
      sorted.get(sorted.size() / 2), sorted.getFirst(), sorted.getLast(), sorted.size());
  }
}
