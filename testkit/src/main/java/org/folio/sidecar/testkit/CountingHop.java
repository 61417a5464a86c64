package org.folio.sidecar.testkit;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.RequestOptions;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small HTTP hop between the sidecar and Keycloak: counts requests by kind, so tests can assert exactly how
 * often the sidecar asked Keycloak, and can be cut off and restored to play a Keycloak outage without stopping
 * the shared Keycloak. It can also hold UMA calls until told to answer them (a slow Keycloak, as slow as the test
 * wants, without waiting for time) or answer them with Keycloak's 500 (a Keycloak failing to evaluate).
 */
public final class CountingHop {

  public enum Kind {
    UMA, TOKEN, EXCHANGE, INTROSPECT, KEYS, OTHER
  }

  private final Vertx vertx = Vertx.vertx();
  // wide enough that the hop never queues the sidecars' UMA calls under load
  private final HttpClient client = vertx.createHttpClient(new io.vertx.core.http.HttpClientOptions(),
    new io.vertx.core.http.PoolOptions().setHttp1MaxSize(200));
  private final java.util.Set<String> decisionKeys = java.util.concurrent.ConcurrentHashMap.newKeySet();
  /** The (realm, subject, permission) questions asked, by the client the token was issued to. */
  private final Map<String, java.util.Set<String>> userQuestionsByClient = new java.util.concurrent.ConcurrentHashMap<>();
  /** UMA calls by the client the token was issued to ({@code azp}): a user's session, or a service token. */
  private final Map<String, AtomicInteger> umaByClient = new java.util.concurrent.ConcurrentHashMap<>();
  /** Token requests (client credentials, passwords) by realm. */
  private final Map<String, AtomicInteger> tokensByRealm = new java.util.concurrent.ConcurrentHashMap<>();
  private final int port;
  private final int targetPort;
  private final Map<Kind, AtomicInteger> counts = new EnumMap<>(Kind.class);
  private volatile HttpServer server;
  private HttpServer control;
  private final java.util.Map<String, Runnable> extraControls = new java.util.concurrent.ConcurrentHashMap<>();
  private final java.util.Queue<Runnable> heldUma = new java.util.concurrent.ConcurrentLinkedQueue<>();
  private volatile boolean holdingUma;
  private volatile boolean failingUma;

  public CountingHop(int port, int targetPort) {
    this.port = port;
    this.targetPort = targetPort;
    for (var kind : Kind.values()) {
      counts.put(kind, new AtomicInteger());
    }
  }

  public String url() {
    return "http://127.0.0.1:" + port;
  }

  public synchronized void start() {
    if (server != null) {
      return;
    }
    server = await(vertx.createHttpServer().requestHandler(this::relay).listen(port, "127.0.0.1"));
  }

  /**
   * Serves the counts and the cut-off switch over HTTP, so test code in any class loader (Quarkus gives each
   * application start its own) can use the one hop of the JVM. Returns the control URL.
   */
  public synchronized String startControl() {
    if (control == null) {
      // cut and restore wait for the relay server, which shares this event loop: run them off it
      control = await(vertx.createHttpServer().requestHandler(request -> vertx.executeBlocking(() -> {
        switch (request.path()) {
          case "/cut" -> cut();
          case "/restore" -> restore();
          case "/reset" -> resetCounts();
          case "/uma/hold" -> holdingUma = true;
          case "/uma/release" -> releaseUma();
          case "/uma/fail" -> failingUma = true;
          case "/uma/answer" -> failingUma = false;
          default -> extraControls.getOrDefault(request.path(), () -> {
          }).run();
        }
        var body = new io.vertx.core.json.JsonObject();
        counts.forEach((kind, count) -> body.put(kind.name(), count.get()));
        body.put("HELD", heldUma.size());
        var tokens = new io.vertx.core.json.JsonObject();
        tokensByRealm.forEach((realm, count) -> tokens.put(realm, count.get()));
        body.put("TOKEN_BY_REALM", tokens);
        return body.encode();
      }).onComplete(result -> request.response().putHeader("content-type", "application/json")
        .setStatusCode(result.succeeded() ? 200 : 500).end(result.succeeded() ? result.result() : "{}")))
        .listen(0, "127.0.0.1"));
    }
    return "http://127.0.0.1:" + control.actualPort();
  }

  /** Keycloak "goes down": new connections are refused and open ones closed. */
  public synchronized void cut() {
    if (server != null) {
      await(server.close());
      server = null;
    }
  }

  public void restore() {
    start();
  }

  /** UMA calls are relayed again, the ones held first, in their order. */
  private void releaseUma() {
    holdingUma = false;
    for (var held = heldUma.poll(); held != null; held = heldUma.poll()) {
      held.run();
    }
  }

  /** Adds a switch for another piece of the platform (e.g. the Kafka relay) to the control port. */
  public void addControl(String path, Runnable action) {
    extraControls.put(path, action);
  }

  public int count(Kind kind) {
    return counts.get(kind).get();
  }

  public void resetCounts() {
    counts.values().forEach(count -> count.set(0));
    decisionKeys.clear();
    umaByClient.clear();
    tokensByRealm.clear();
    userQuestionsByClient.clear();
  }

  /** UMA calls since the last reset made with a token issued to a client that {@code client} accepts. */
  public int umaCalls(java.util.function.Predicate<String> client) {
    return umaByClient.entrySet().stream().filter(entry -> client.test(entry.getKey()))
      .mapToInt(entry -> entry.getValue().get()).sum();
  }

  /**
   * How many different questions the UMA calls since the last reset asked: (realm, client, subject, session,
   * permission), what a decision depends on. The fewest UMA calls any cache could have made.
   */
  public int distinctDecisionKeys() {
    return decisionKeys.size();
  }

  /**
   * How many different (realm, subject, permission) questions the UMA calls since the last reset asked with a token
   * issued to a client that {@code client} accepts: the fewest calls a cache that holds a user's grants across the
   * user's sessions could have made; every call beyond them asked a question again (a refresh, or a new session).
   */
  public int distinctUserQuestions(java.util.function.Predicate<String> client) {
    return userQuestionsByClient.entrySet().stream().filter(entry -> client.test(entry.getKey()))
      .mapToInt(entry -> entry.getValue().size()).sum();
  }

  private static io.vertx.core.json.JsonObject claims(HttpServerRequest request) {
    var authorization = String.valueOf(request.getHeader("authorization"));
    var parts = authorization.split("\\.");
    return parts.length == 3
      ? new io.vertx.core.json.JsonObject(new String(java.util.Base64.getUrlDecoder().decode(parts[1])))
      : new io.vertx.core.json.JsonObject();
  }

  private static String decisionKey(HttpServerRequest request, io.vertx.core.json.JsonObject claims, Buffer body) {
    var permission = java.net.URLDecoder.decode(body.toString(), java.nio.charset.StandardCharsets.UTF_8)
      .replaceAll(".*permission=([^&]*).*", "$1");
    return String.join("|", request.path(), claims.getString("azp", ""), claims.getString("sub", ""),
      claims.getString("sid", ""), permission);
  }

  /** A decision key without its client and session: path|azp|sub|sid|permission to path|sub|permission. */
  private static String userQuestion(String decisionKey) {
    var parts = decisionKey.split("\\|", -1);
    return String.join("|", parts[0], parts[2], parts[4]);
  }

  private void relay(HttpServerRequest request) {
    request.body().onSuccess(body -> {
      var kind = classify(request, body);
      counts.get(kind).incrementAndGet();
      if (kind == Kind.TOKEN) {
        tokensByRealm.computeIfAbsent(realm(request), realm -> new AtomicInteger()).incrementAndGet();
      }
      if (kind == Kind.UMA) {
        var claims = claims(request);
        var key = decisionKey(request, claims, body);
        decisionKeys.add(key);
        userQuestionsByClient.computeIfAbsent(claims.getString("azp", ""),
          client -> java.util.concurrent.ConcurrentHashMap.newKeySet()).add(userQuestion(key));
        umaByClient.computeIfAbsent(claims.getString("azp", ""), client -> new AtomicInteger()).incrementAndGet();
      }
      if (kind == Kind.UMA && failingUma) {
        request.response().setStatusCode(500).putHeader("content-type", "application/json")
          .end("{\"error\":\"unknown_error\"}");
      } else if (kind == Kind.UMA && holdingUma) {
        heldUma.add(() -> forward(request, body));
        // released between the check and the add: do not keep it
        if (!holdingUma) {
          releaseUma();
        }
      } else {
        forward(request, body);
      }
    });
  }

  private void forward(HttpServerRequest request, Buffer body) {
    var options = new RequestOptions().setMethod(request.method()).setHost("127.0.0.1").setPort(targetPort)
      .setURI(request.uri()).setHeaders(request.headers());
    client.request(options)
      .compose(outgoing -> outgoing.send(body))
      .compose(answer -> answer.body().map(answerBody -> reply(request, answer, answerBody)))
      .onFailure(error -> {
        if (!request.response().ended() && !request.response().closed()) {
          request.response().setStatusCode(502).end();
        }
      });
  }

  private static Void reply(HttpServerRequest request, HttpClientResponse answer, Buffer body) {
    var response = request.response().setStatusCode(answer.statusCode());
    response.headers().setAll(answer.headers());
    response.headers().remove("transfer-encoding");
    response.headers().set("content-length", String.valueOf(body.length()));
    response.end(body);
    return null;
  }

  /** The realm of a {@code /realms/<realm>/...} path; empty for any other. */
  private static String realm(HttpServerRequest request) {
    var path = request.path();
    int start = path.indexOf("/realms/");
    if (start < 0) {
      return "";
    }
    start += "/realms/".length();
    int end = path.indexOf('/', start);
    return end < 0 ? path.substring(start) : path.substring(start, end);
  }

  private static Kind classify(HttpServerRequest request, Buffer body) {
    var path = request.path();
    if (path.endsWith("/protocol/openid-connect/certs")) {
      return Kind.KEYS;
    }
    if (path.endsWith("/protocol/openid-connect/token/introspect")) {
      return Kind.INTROSPECT;
    }
    if (path.endsWith("/protocol/openid-connect/token")) {
      var form = body.toString();
      return form.contains("uma-ticket") ? Kind.UMA : form.contains("token-exchange") ? Kind.EXCHANGE : Kind.TOKEN;
    }
    return Kind.OTHER;
  }

  private static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("hop operation failed", e);
    }
  }
}
