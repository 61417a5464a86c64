package org.folio.sidecar.load.fault;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.folio.sidecar.load.fleet.FaultMode;
import org.jspecify.annotations.Nullable;

/**
 * What the fault run puts between a sidecar and something it depends on, so a fault can be switched on and off
 * while the fleet runs: in front of a stub module (gone, slow, answering 401 to everything), or as the secret
 * store itself (FOLIO's secure store proxy, FSSP, which can become unavailable).
 */
final class FaultRelay implements AutoCloseable {

  private final Vertx vertx;
  private final HttpClient client;
  private final int port;
  private final Function<HttpServerRequest, Future<Void>> passing;
  private volatile FaultMode mode = FaultMode.PASS;
  private volatile long slowMillis;
  private @Nullable HttpServer server;

  private FaultRelay(Vertx vertx, int port, Function<HttpServerRequest, Future<Void>> passing) {
    this.vertx = vertx;
    this.client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true),
      new PoolOptions().setHttp1MaxSize(200));
    this.port = port;
    this.passing = passing;
  }

  /** A relay on {@code port} in front of the module listening on {@code targetPort}. */
  static FaultRelay module(int port, int targetPort) {
    var vertx = Vertx.vertx();
    var holder = new FaultRelay[1];
    holder[0] = new FaultRelay(vertx, port, request -> holder[0].relay(request, targetPort));
    holder[0].listen();
    return holder[0];
  }

  /**
   * The secure store proxy on {@code port}: {@code GET /secure-store/entries/<key>} answers {@code {"key","value"}}
   * with {@code secretOf} the key (null: 404, a key the store does not have).
   */
  static FaultRelay secretStore(int port, Function<String, @Nullable String> secretOf) {
    var vertx = Vertx.vertx();
    var relay = new FaultRelay(vertx, port, request -> {
      var key = request.path().replaceFirst("^/secure-store/entries/", "");
      var value = secretOf.apply(key);
      var response = request.response().putHeader("content-type", "application/json");
      return value == null
        ? response.setStatusCode(404).end("{}")
        : response.end(new JsonObject().put("key", key).put("value", value).encode());
    });
    relay.listen();
    return relay;
  }

  int port() {
    return port;
  }

  FaultMode mode() {
    return mode;
  }

  /** Switches the fault; DOWN closes the server (and its connections), any other mode listens again. */
  synchronized void mode(FaultMode next, long delayMillis) {
    slowMillis = delayMillis;
    mode = next;
    if (next == FaultMode.DOWN) {
      var current = server;
      server = null;
      if (current != null) {
        await(current.close());
      }
    } else {
      listen();
    }
  }

  private synchronized void listen() {
    if (server == null) {
      server = await(vertx.createHttpServer().requestHandler(this::handle).listen(port, "127.0.0.1"));
    }
  }

  private void handle(HttpServerRequest request) {
    switch (mode) {
      case UNAUTHORIZED -> request.response().setStatusCode(401).putHeader("content-type", "text/plain")
        .end("Unauthorized");
      case UNAVAILABLE -> request.response().setStatusCode(503).end();
      default -> passing.apply(request);
    }
  }

  private Future<Void> relay(HttpServerRequest request, int targetPort) {
    var options = new RequestOptions().setMethod(request.method()).setHost("127.0.0.1").setPort(targetPort)
      .setURI(request.uri()).setHeaders(request.headers());
    long delay = mode == FaultMode.SLOW ? slowMillis : 0;
    return request.body()
      .compose(body -> delay == 0 ? Future.succeededFuture(body) : later(delay, body))
      .compose(body -> client.request(options).compose(outgoing -> outgoing.send(body)))
      .compose(answer -> answer.body().compose(body -> reply(request, answer.statusCode(), answer.headers(), body)))
      .recover(error -> request.response().setStatusCode(502).end());
  }

  private Future<Buffer> later(long millis, Buffer body) {
    var promise = io.vertx.core.Promise.<Buffer>promise();
    vertx.setTimer(millis, id -> promise.complete(body));
    return promise.future();
  }

  private static Future<Void> reply(HttpServerRequest request, int status, io.vertx.core.MultiMap headers,
    Buffer body) {
    if (request.response().closed()) {
      return Future.succeededFuture();
    }
    var response = request.response().setStatusCode(status);
    response.headers().setAll(headers);
    response.headers().remove("transfer-encoding");
    response.headers().set("content-length", String.valueOf(body.length()));
    return response.end(body);
  }

  private static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("fault relay: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    vertx.close();
  }
}
