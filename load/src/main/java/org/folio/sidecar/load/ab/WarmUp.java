package org.folio.sidecar.load.ab;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Gives a fresh fleet's JVMs their JIT warm-up before anything is measured, with a tenant of its own: the
 * measured tenants' decisions stay uncached, so both variants start the workload from the same cold caches.
 */
final class WarmUp {

  static final String TENANT = "ltwarm";

  private WarmUp() {
  }

  /** Sends check-outs, check-ins and imports from 4 threads for {@code seconds}; returns how many failed. */
  static int run(String circulation, String inventory, String token, int seconds) throws InterruptedException {
    var http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    var failures = new AtomicInteger();
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    var urls = new String[]{circulation + "/circulation/check-out-by-barcode",
      circulation + "/circulation/check-in-by-barcode", inventory + "/inventory/import"};
    try (var pool = Executors.newFixedThreadPool(4)) {
      for (int thread = 0; thread < 4; thread++) {
        pool.submit(() -> {
          for (int i = 0; System.nanoTime() < deadline; i++) {
            var request = HttpRequest.newBuilder(URI.create(urls[i % urls.length])).timeout(Duration.ofSeconds(10))
              .header("x-okapi-tenant", TENANT).header("x-okapi-token", token)
              .header("content-type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString("{\"itemBarcode\":\"" + i + "\"}")).build();
            try {
              if (http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() / 100 != 2) {
                failures.incrementAndGet();
              }
            } catch (Exception e) {
              failures.incrementAndGet();
            }
          }
        });
      }
    }
    return failures.get();
  }
}
