package org.folio.sidecar.soak;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.folio.sidecar.support.PackagedSidecar;
import org.folio.sidecar.testkit.FreePorts;
import org.folio.sidecar.testkit.GrantingKeycloak;
import org.folio.sidecar.testkit.TestModule;
import org.junit.jupiter.api.Test;

/**
 * The packaged sidecar under folio-helm-v2's exact {@code JAVA_OPTS} ({@code -XX:+UseZGC -Xms64m -Xmx64m}), asked
 * for a working set of authorization decisions several times what 64 MB holds, under steady load for a bounded
 * time: it must not run out of memory, its decision cache must stay within its heap budget, and the process within
 * the chart's 256 MiB limit. Keycloak is played by a stub that grants everything at once (its speed is not what is
 * measured), the module by one that answers 200 at once, so the latency is what the sidecar adds.
 */
class HeapBoundedCachesIT {

  /** Bounded so that verify stays within its CI budget; -Dsoak.seconds=600 for a longer run. */
  private static final int LOAD_SECONDS = Integer.getInteger("soak.seconds", 100);
  /** 200,000 decision keys of about 1.1 KB: over three times the whole 64 MB heap. */
  private static final int USERS = 40_000;
  private static final String[][] ENDPOINTS = {{"GET", "/items"}, {"GET", "/items/1"}, {"PUT", "/items/1"},
    {"DELETE", "/items/1"}, {"GET", "/downloads/x"}};
  /** Keys of the hot set: one request in eight goes there, the rest walk the working set. */
  private static final int HOT_KEYS = 2_000;
  private static final int WORKERS = 4;
  private static final long LIMIT_KIB = 256 * 1024;

  @Test
  void aWorkingSetBeyondTheHeapStaysWithinItsBudgets() throws Exception {
    var keycloak = GrantingKeycloak.start("soak");
    var module = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    module.createContext("/", exchange -> {
      exchange.getRequestBody().readAllBytes();
      exchange.sendResponseHeaders(200, 2);
      exchange.getResponseBody().write("{}".getBytes(StandardCharsets.UTF_8));
      exchange.close();
    });
    module.start();
    var descriptor = Files.createTempFile("descriptor", ".json");
    Files.writeString(descriptor, TestModule.descriptor().encode());
    var kcUrl = keycloak.url();
    var tokens = keycloak.tokens(USERS, 3600);

    int port = FreePorts.next();
    var env = new HashMap<String, String>();
    env.put("JAVA_OPTS", PackagedSidecar.chartEnvironment().get("JAVA_OPTS"));
    env.putAll(Map.of("QUARKUS_HTTP_PORT", String.valueOf(port), "MODULE_NAME", TestModule.NAME,
      "MODULE_VERSION", TestModule.VERSION, "MODULE_URL", "http://127.0.0.1:" + module.getAddress().getPort(),
      "SIDECAR_URL", "http://localhost:" + port, "KC_URL", kcUrl, "MODULE_DESCRIPTOR_PATH", descriptor.toString(),
      "SIDECAR_TENANT_ENTITLEMENT_CHECK", "false", "SECRET_STORE_TYPE", "EPHEMERAL",
      "SIDECAR_ACCESS_LOG_ENABLED", "false"));
    try (var sidecar = PackagedSidecar.start(env, port)) {
      var offered = ConcurrentHashMap.<Integer>newKeySet();
      var cursor = new java.util.concurrent.atomic.AtomicInteger();
      var latencies = new ArrayList<long[]>();
      var failures = new AtomicLong();
      var firstFailure = new AtomicReference<String>();
      var maxRss = new AtomicLong(sidecar.rssKib());
      long end = System.nanoTime() + Duration.ofSeconds(LOAD_SECONDS).toNanos();
      var workers = new ArrayList<Thread>();
      for (int w = 0; w < WORKERS; w++) {
        var mine = new long[1_000_000];
        latencies.add(mine);
        int seed = w;
        workers.add(Thread.ofPlatform().start(() -> load(sidecar, tokens, offered, cursor, mine, failures,
          firstFailure, end, seed)));
      }
      // RSS sampled about once a second while the workers run (they stop at the end of the load)
      for (var worker : workers) {
        while (!worker.join(Duration.ofSeconds(1))) {
          maxRss.accumulateAndGet(sidecar.rssKib(), Math::max);
        }
      }
      maxRss.accumulateAndGet(sidecar.rssKib(), Math::max);

      var metrics = sidecar.metrics();
      var output = sidecar.output();
      double hits = PackagedSidecar.sample(metrics, "cache_gets_total",
        "cache=\"sidecar.authz.decisions\",result=\"hit\"");
      double misses = PackagedSidecar.sample(metrics, "cache_gets_total",
        "cache=\"sidecar.authz.decisions\",result=\"miss\"");
      double held = PackagedSidecar.sample(metrics, "cache_size", "cache=\"sidecar.authz.decisions\"");
      double weight = PackagedSidecar.sample(metrics, "sidecar_cache_weight_bytes", "cache=\"decisions\"");
      double bound = PackagedSidecar.sample(metrics, "sidecar_cache_weight_max_bytes", "cache=\"decisions\"");
      var all = merge(latencies);
      System.out.printf("soak (JAVA_OPTS of folio-helm-v2, %d s, %d workers): %d requests, %d failed; decision keys "
        + "offered %d (working set %d), held %.0f; hit ratio %.3f; UMA calls %d; decision cache weight %.1f of %.1f MiB; added "
        + "latency p50 %.2f ms, p99 %.2f ms, max %.2f ms; max RSS %d MiB; GC pauses %s%n", LOAD_SECONDS, WORKERS,
        all.length, failures.get(), offered.size(), USERS * ENDPOINTS.length, held, hits / (hits + misses),
        keycloak.umaCalls(), weight / 1048576,
        bound / 1048576, percentile(all, 0.50), percentile(all, 0.99), percentile(all, 1.0), maxRss.get() / 1024,
        gcPauses(metrics));
      System.out.println(output.lines().filter(line -> line.contains("Cache bounds")).findFirst().orElse(""));

      assertThat(output).doesNotContain("OutOfMemoryError");
      assertThat(sidecar.isAlive()).isTrue();
      assertThat(failures.get()).as("failed requests; the first: %s", firstFailure.get()).isZero();
      // the working set (200,000 keys, over three times the whole heap) is walked as far as the run's throughput
      // goes: on a busy 2-core machine about 30,000 keys in 100 s, twice what the cache holds; -Dsoak.seconds
      // walks further
      assertThat(offered.size()).as("keys offered, more than the cache can hold").isGreaterThan(3 * (int) held / 2);
      assertThat(weight).isPositive().isLessThanOrEqualTo(bound);
      assertThat(bound).isLessThanOrEqualTo(64L << 20);
      assertThat(maxRss.get()).as("RSS under the chart's 256Mi limit").isLessThan(LIMIT_KIB);
    } finally {
      keycloak.close();
      module.stop(0);
      Files.deleteIfExists(descriptor);
    }
  }

  private static void load(PackagedSidecar sidecar, List<String> tokens, java.util.Set<Integer> offered,
    java.util.concurrent.atomic.AtomicInteger cursor, long[] latencies, AtomicLong failures,
    AtomicReference<String> firstFailure, long end, int seed) {
    var random = new SplittableRandom(seed);
    int workingSet = tokens.size() * ENDPOINTS.length;
    int n = 0;
    while (System.nanoTime() < end && n < latencies.length) {
      int key = random.nextInt(8) == 0 ? random.nextInt(HOT_KEYS) : Math.floorMod(cursor.getAndIncrement(), workingSet);
      offered.add(key);
      var endpoint = ENDPOINTS[key % ENDPOINTS.length];
      var request = HttpRequest.newBuilder(URI.create(sidecar.url(endpoint[1])))
        .method(endpoint[0], HttpRequest.BodyPublishers.noBody())
        .header("x-okapi-tenant", "soak").header("x-okapi-token", tokens.get(key / ENDPOINTS.length)).build();
      long started = System.nanoTime();
      try {
        var response = sidecar.http().send(request, HttpResponse.BodyHandlers.ofString());
        latencies[n++] = System.nanoTime() - started;
        if (response.statusCode() != 200) {
          failures.incrementAndGet();
          firstFailure.compareAndSet(null, response.statusCode() + " " + response.body());
        }
      } catch (Exception e) {
        failures.incrementAndGet();
        firstFailure.compareAndSet(null, e.toString());
      }
    }
  }

  private static long[] merge(List<long[]> perWorker) {
    return perWorker.stream().flatMapToLong(values -> Arrays.stream(values).filter(v -> v > 0)).sorted().toArray();
  }

  private static double percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    return sorted[(int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] / 1e6;
  }

  /** ZGC's pauses from the sidecar's own metrics: how many, their total and the longest, per collector. */
  private static String gcPauses(String metrics) {
    var count = new java.util.TreeMap<String, Double>();
    var total = new java.util.TreeMap<String, Double>();
    var longest = new java.util.TreeMap<String, Double>();
    var sample = java.util.regex.Pattern
      .compile("^jvm_gc_pause_seconds_(count|sum|max)\\{.*gc=\"([^\"]*)\".*} (\\S+)$");
    for (var line : metrics.split("\n")) {
      var matcher = sample.matcher(line);
      if (matcher.matches()) {
        double value = Double.parseDouble(matcher.group(3));
        var into = switch (matcher.group(1)) {
          case "count" -> count;
          case "sum" -> total;
          default -> longest;
        };
        into.merge(matcher.group(2), value, "max".equals(matcher.group(1)) ? Math::max : Double::sum);
      }
    }
    var pauses = new StringBuilder();
    count.forEach((gc, n) -> pauses.append(String.format(java.util.Locale.ROOT, "%s %.0f pauses, %.1f ms in all, "
      + "longest %.2f ms; ", gc, n, total.getOrDefault(gc, 0.0) * 1000, longest.getOrDefault(gc, 0.0) * 1000)));
    return pauses.length() == 0 ? "(not reported)" : pauses.toString();
  }

}
