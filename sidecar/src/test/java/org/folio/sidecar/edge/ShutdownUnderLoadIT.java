package org.folio.sidecar.edge;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.folio.sidecar.support.PackagedSidecar;
import org.junit.jupiter.api.Test;

/**
 * Issue 27 item 3: the packaged sidecar stopped under steady load as Kubernetes stops it (SIGTERM). Readiness is
 * DOWN at once, requests in flight (the module takes 100 ms) finish, keep-alive callers are told to close, and
 * every request is answered 200 or refused before it was accepted (connection refused, which a caller may safely
 * retry elsewhere): none is lost or reset.
 */
class ShutdownUnderLoadIT {

  private static final int CALLERS = 8;

  @Test
  void aStopUnderLoadLosesNoRequest() throws Exception {
    var module = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    // the module answers 100 ms later without holding a thread, so requests are in flight when SIGTERM comes
    var answers = Executors.newScheduledThreadPool(2);
    module.createContext("/", exchange -> {
      var unused = answers.schedule(() -> {
        exchange.sendResponseHeaders(200, 2);
        exchange.getResponseBody().write("{}".getBytes());
        exchange.close();
        return null;
      }, 100, TimeUnit.MILLISECONDS);
    });
    module.start();
    var callers = Executors.newFixedThreadPool(CALLERS);
    try (var sidecar = PackagedSidecar.standalone(module.getAddress().getPort(),
      Map.of("SIDECAR_SHUTDOWN_DELAY", "2s", "SIDECAR_SHUTDOWN_TIMEOUT", "10s"))) {
      int port = sidecar.port();
      var process = sidecar.process();
      var probe = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      var ready = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/admin/health/ready")).build();
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (status(probe, ready) != 200) {
        assertThat(System.nanoTime()).as("ready within 60 s").isLessThan(deadline);
        process.waitFor(200, TimeUnit.MILLISECONDS);
      }

      var outcomes = new ConcurrentHashMap<String, AtomicInteger>();
      var answered = new AtomicInteger();
      var futures = new ArrayList<Future<?>>();
      for (int c = 0; c < CALLERS; c++) {
        futures.add(callers.submit(() -> load(port, outcomes, answered)));
      }
      while (answered.get() < 200) {
        process.waitFor(50, TimeUnit.MILLISECONDS);
      }
      process.destroy();
      // readiness turns DOWN at once, while requests are still served
      long stopped = System.nanoTime();
      int readiness;
      do {
        readiness = status(probe, ready);
      } while (readiness == 200 && System.nanoTime() - stopped < Duration.ofSeconds(1).toNanos());
      assertThat(readiness).isEqualTo(503);

      assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
      for (var future : futures) {
        future.get(30, TimeUnit.SECONDS);
      }
      System.out.printf("Shutdown under load: %s; SIGTERM to exit %d ms; %s%n", outcomes,
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopped),
        sidecar.lines().stream().filter(line -> line.contains("Stopped accepting")).toList());
      // each caller ends on a refused connection; nothing else but answers
      assertThat(outcomes.keySet()).as(outcomes.toString()).containsOnly("200", "refused");
      assertThat(outcomes.get("refused").get()).isEqualTo(CALLERS);
      assertThat(outcomes.get("200").get()).isGreaterThan(200);
      // the JVM's status after SIGTERM once its shutdown hooks have run
      assertThat(process.exitValue()).isEqualTo(143);
    } finally {
      callers.shutdownNow();
      answers.shutdownNow();
      module.stop(0);
    }
  }

  /** One keep-alive caller: requests until the port is closed; each outcome counted by status or failure. */
  private static void load(int port, Map<String, AtomicInteger> outcomes, AtomicInteger answered) {
    var client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/public/info"))
      .header("x-okapi-tenant", "diku").timeout(Duration.ofSeconds(20)).build();
    while (true) {
      String outcome;
      try {
        outcome = String.valueOf(client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode());
        answered.incrementAndGet();
      } catch (ConnectException refused) {
        outcomes.computeIfAbsent("refused", k -> new AtomicInteger()).incrementAndGet();
        return;
      } catch (IOException lost) {
        outcome = "lost: " + lost;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      outcomes.computeIfAbsent(outcome, k -> new AtomicInteger()).incrementAndGet();
    }
  }

  private static int status(HttpClient client, HttpRequest request) {
    try {
      return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }
}
