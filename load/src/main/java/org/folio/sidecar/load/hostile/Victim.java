package org.folio.sidecar.load.hostile;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The caller nobody should be able to starve: one request every {@link #PERIOD_MILLIS} to a sidecar, with each
 * genuine token in turn, until told to stop; {@code before} runs before each (a flush that makes it a first
 * decision). Its latencies are what a hostile caller costs everyone else, read against the same caller's on a
 * control sidecar at the same time.
 */
final class Victim {

  static final int PERIOD_MILLIS = 200;
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** Requests sent, refused with 401, failed otherwise (any other status or no answer), and the latencies in ms. */
  record Result(int total, int refused, int failed, long p50, long p99, long max) {

    String row(String sidecar) {
      return "| %s | %d | %d | %d | %d | %d | %d |".formatted(sidecar, total, refused, failed, p50, p99, max);
    }
  }

  private Victim() {
  }

  static CompletableFuture<Result> start(String base, List<HostileRun.Genuine> callers, AtomicBoolean stop,
    Runnable before) {
    var result = new CompletableFuture<Result>();
    Thread.ofPlatform().name("victim").start(() -> result.complete(loop(base, callers, stop, before)));
    return result;
  }

  private static Result loop(String base, List<HostileRun.Genuine> callers, AtomicBoolean stop, Runnable before) {
    var millis = new ArrayList<Long>();
    int refused = 0;
    int failed = 0;
    for (int n = 0; !stop.get(); n++) {
      var caller = callers.get(n % callers.size());
      before.run();
      long started = System.nanoTime();
      try {
        int status = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/items/" + n))
          .header("x-okapi-tenant", caller.tenant()).header("x-okapi-token", caller.token())
          .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        if (status == 401) {
          refused++;
        } else if (status != 200) {
          failed++;
        }
      } catch (IOException e) {
        failed++;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      long took = (System.nanoTime() - started) / 1_000_000;
      millis.add(took);
      try {
        Thread.sleep(Math.max(0, PERIOD_MILLIS - took));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    millis.sort(null);
    return new Result(millis.size(), refused, failed, percentile(millis, 0.50), percentile(millis, 0.99),
      millis.isEmpty() ? 0 : millis.getLast());
  }

  private static long percentile(List<Long> sorted, double quantile) {
    return sorted.isEmpty()
      ? 0
      : sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(quantile * sorted.size()) - 1));
  }

  static void table(List<String> report, String caller, Result attacked, Result control) {
    report.add("| %s | requests | refused (401) | other failures | p50 ms | p99 ms | max ms |".formatted(caller));
    report.add("|---|---:|---:|---:|---:|---:|---:|");
    report.add(attacked.row("attacked"));
    report.add(control.row("control"));
    report.add("");
  }
}
