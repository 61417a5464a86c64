package org.folio.sidecar.testkit;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/**
 * ops/fleet-flush.sh shown on two local sidecars of the demo's platform: a user's grants cached on both, the script
 * flushing that user on both through the admin API, then the audit lines, the explicit-eviction metric and the
 * look-up before and after, and the user's next request asking Keycloak again. Run by
 * {@code scripts/run-main.sh testkit org.folio.sidecar.testkit.FleetFlushDemo}; the sidecars' logs stay in
 * testkit/target/fleet-flush-sidecar-{1,2}.log.
 */
public final class FleetFlushDemo {

  private static final Pattern EXPLICIT = Pattern.compile(
    "cache_evictions_count\\{cache=\"sidecar.authz.decisions\",cause=\"EXPLICIT\"} (\\S+)");
  private static final Pattern TOTAL = Pattern.compile("\"total\" : (\\d+)");

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  public static void main(String[] args) {
    int exit;
    try {
      exit = new FleetFlushDemo().run();
    } catch (Exception e) {
      e.printStackTrace();
      exit = 1;
    }
    // WireMock, Kafka and Vert.x threads would keep the JVM alive
    System.exit(exit);
  }

  private int run() throws Exception {
    var platform = TestPlatform.get();
    var logs = List.of(Path.of("testkit/target/fleet-flush-sidecar-1.log"),
      Path.of("testkit/target/fleet-flush-sidecar-2.log"));
    try (var one = SidecarProcess.start(platform, ProcessBuilder.Redirect.to(logs.get(0).toFile()));
      var two = SidecarProcess.start(platform, ProcessBuilder.Redirect.to(logs.get(1).toFile()))) {
      var sidecars = List.of(one, two);
      var alpha = platform.alpha();
      var token = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
      var user = Tokens.claims(token).getString("user_id");
      for (var sidecar : sidecars) {
        sidecar.awaitLive();
        // the user's grants for two permissions, cached on each sidecar (retried while routes still load)
        for (var path : List.of("/items/1", "/items")) {
          awaitStatus(sidecar.baseUrl() + path, token, 200);
        }
      }
      System.out.println("== before: user " + user + " of tenant alpha");
      report(sidecars, user);
      var addresses = sidecars.stream().map(s -> URI.create(s.managementUrl()).getAuthority())
        .reduce((a, b) -> a + "," + b).orElseThrow();
      var command = List.of("ops/fleet-flush.sh", "--addresses", addresses, "--tenant", "alpha", "--user", user);
      System.out.println("== $ SIDECAR_ADMIN_TOKEN=... " + String.join(" ", command));
      var script = new ProcessBuilder(command).redirectErrorStream(true);
      script.environment().put("SIDECAR_ADMIN_TOKEN", TestPlatform.ADMIN_TOKEN);
      var process = script.start();
      var output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int status = process.waitFor();
      System.out.print(output);
      System.out.println("(exit " + status + ")");
      System.out.println("== audit lines");
      for (var log : logs) {
        Files.readAllLines(log).stream().filter(line -> line.contains("admin call: "))
          .forEach(line -> System.out.println(log.getFileName() + ": " + line));
      }
      System.out.println("== after");
      report(sidecars, user);
      int before = platform.keycloakHop().count(CountingHop.Kind.UMA);
      for (var sidecar : sidecars) {
        awaitStatus(sidecar.baseUrl() + "/items/1", token, 200);
      }
      System.out.println("the user's next request on each sidecar: 200, Keycloak asked "
        + (platform.keycloakHop().count(CountingHop.Kind.UMA) - before) + " times (once per sidecar)");
      return status;
    }
  }

  private void report(List<SidecarProcess> sidecars, String user) throws Exception {
    for (var sidecar : sidecars) {
      var metrics = get(sidecar.managementUrl() + "/q/metrics", "");
      var explicit = EXPLICIT.matcher(metrics);
      var lookup = get(sidecar.managementUrl() + "/admin/cache/entries?tenant=alpha&user=" + user,
        TestPlatform.ADMIN_TOKEN);
      var total = TOTAL.matcher(lookup);
      System.out
        .println(URI.create(sidecar.managementUrl()).getAuthority() + ": cache_evictions_count{cause=\"EXPLICIT\"} "
          + (explicit.find() ? explicit.group(1) : "absent") + ", the user's cached decisions (admin look-up): "
          + (total.find() ? total.group(1) : lookup));
    }
  }

  private void awaitStatus(String url, String token, int expected) throws Exception {
    int status = 0;
    for (int i = 0; i < 60 && status != expected; i++) {
      if (i > 0) {
        Thread.sleep(500);
      }
      var request = HttpRequest.newBuilder(URI.create(url)).header("x-okapi-tenant", "alpha")
        .header("x-okapi-token", token).timeout(Duration.ofSeconds(10)).build();
      try {
        status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
      } catch (IOException e) {
        status = 0;
      }
    }
    if (status != expected) {
      throw new IllegalStateException(url + " answered " + status);
    }
  }

  private String get(String url, String bearer) throws IOException, InterruptedException {
    var request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
    if (!bearer.isEmpty()) {
      request.header("authorization", "Bearer " + bearer);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString()).body();
  }
}
