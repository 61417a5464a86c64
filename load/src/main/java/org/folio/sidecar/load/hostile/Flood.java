package org.folio.sidecar.load.hostile;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Issue 43 row 2's flood: {@code connections} connections opened at once, each then sending its next request with
 * one of the dead sessions' tokens so that together they send {@code rate} requests a second, until told to stop.
 */
final class Flood {

  private final HttpClient client;
  private final AtomicInteger sent = new AtomicInteger();
  private final Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();

  private Flood(HttpClient client) {
    this.client = client;
  }

  static Flood start(Vertx vertx, String base, List<String> tokens, int connections, int rate, AtomicBoolean stop) {
    var client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setIdleTimeout(120),
      new PoolOptions().setHttp1MaxSize(connections).setMaxWaitQueueSize(-1));
    var flood = new Flood(client);
    var uri = URI.create(base);
    long period = Math.max(1, connections * 1000L / rate);
    for (int i = 0; i < connections; i++) {
      var options = new RequestOptions().setMethod(HttpMethod.GET).setHost(uri.getHost()).setPort(uri.getPort())
        .setURI("/items/" + i).putHeader("x-okapi-tenant", "alpha")
        .putHeader("x-okapi-token", tokens.get(i % tokens.size()));
      flood.send(vertx, options, period, stop);
    }
    return flood;
  }

  private void send(Vertx vertx, RequestOptions options, long period, AtomicBoolean stop) {
    if (stop.get()) {
      return;
    }
    sent.incrementAndGet();
    client.request(options).compose(request -> request.send()).compose(answer -> {
      statuses.computeIfAbsent(answer.statusCode(), status -> new AtomicInteger()).incrementAndGet();
      return answer.body();
    }).onComplete(done -> {
      if (done.failed()) {
        statuses.computeIfAbsent(0, status -> new AtomicInteger()).incrementAndGet();
      }
      var unused = vertx.setTimer(period, id -> send(vertx, options, period, stop));
    });
  }

  /** What was sent, by answer (0: no answer); closes the connections. */
  String stop() {
    var byStatus = new TreeMap<Integer, Integer>();
    statuses.forEach((status, count) -> byStatus.put(status, count.get()));
    var unused = client.close();
    return "%d requests, answers %s".formatted(sent.get(), byStatus);
  }
}
