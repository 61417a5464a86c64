package org.folio.sidecar.forward;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.ChannelOption;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.core.streams.ReadStream;
import io.vertx.core.streams.WriteStream;
import jakarta.inject.Singleton;
import java.net.ConnectException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.folio.sidecar.config.SidecarConfig;
import org.folio.sidecar.config.TlsConfig;
import org.folio.sidecar.config.TlsOptions;
import org.folio.sidecar.routing.ModulePathPrefix;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.tracing.Tracing;
import org.jspecify.annotations.Nullable;

/**
 * Streams a caller's request to a target and the target's answer back, with back-pressure both ways: neither
 * body is ever held in memory whole, so a 100 MB upload costs a few buffers.
 */
@Singleton
public class RequestForwarder {

  private final Vertx vertx;
  private final HttpClient client;
  private final HttpClient gatewayClient;
  private final long timeoutMillis;
  private final long connectTimeoutMillis;
  private final ModulePathPrefix pathPrefix;
  private final Tracing tracing;
  private final AtomicInteger held = new AtomicInteger();
  /** Module connections held per caller (ingress only), by token identity where there is one, else address. */
  private final Map<String, Integer> heldByCaller = new ConcurrentHashMap<>();
  private final int maxPerCaller;
  private final long sendTimeoutMillis;

  RequestForwarder(Vertx vertx, SidecarConfig config, TlsConfig tls, ModulePathPrefix pathPrefix, Tracing tracing,
    MeterRegistry registry) {
    this.vertx = vertx;
    this.pathPrefix = pathPrefix;
    this.tracing = tracing;
    this.timeoutMillis = config.requestTimeout();
    this.connectTimeoutMillis = Math.max(1, config.forwardConnectTimeout().toMillis());
    this.sendTimeoutMillis = Math.max(1, Math.min(config.sendTimeout().toMillis(), timeoutMillis));
    this.maxPerCaller = config.forwardMaxConnectionsPerCaller();
    this.client = vertx.createHttpClient(TlsOptions.trust(options(), tls.forwarding(), tls.verifyHostname(),
      "SC_CLIENT_TLS_TRUSTSTORE"), new PoolOptions().setHttp1MaxSize(500));
    // the gateway is trusted by its own truststore, as upstream: it is often fronted by another CA than modules
    this.gatewayClient = vertx.createHttpClient(TlsOptions.trust(options(), tls.gateway(), tls.verifyHostname(),
      "GW_CLIENT_TLS_TRUSTSTORE"), new PoolOptions().setHttp1MaxSize(200));
    Gauge.builder("sidecar.forward.connections", held, AtomicInteger::get)
      .description("requests holding or waiting for a connection to a module, egress target or the gateway")
      .register(registry);
  }

  private HttpClientOptions options() {
    return new HttpClientOptions().setKeepAlive(true)
      .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, connectTimeoutMillis));
  }

  /**
   * Sends the request with {@code headers} (already filtered by the caller) and starts relaying the answer.
   * The future completes when the target's status line has been relayed, or fails with a {@link SidecarError}
   * (400 a header that cannot be sent, 502 unreachable, 504 timed out) while the caller can still be told.
   */
  public Future<Void> forward(Exchange exchange, Target target, MultiMap headers) {
    var request = exchange.request;
    return send(client, exchange, target, pathPrefix.toModule(RequestPaths.forwardedUri(request)), headers)
      .compose(answer -> relay(request, answer));
  }

  /**
   * Who holds a module connection, for SIDECAR_FORWARD_MAX_CONNECTIONS_PER_CALLER: a verified token's user, else
   * the caller's address. Null for egress, whose caller is the module itself.
   */
  private static @Nullable String caller(Exchange exchange) {
    if (exchange.direction != Exchange.Direction.INGRESS) {
      return null;
    }
    if (exchange.userId != null) {
      return "user " + exchange.tenant + "/" + exchange.userId;
    }
    var peer = exchange.request.remoteAddress();
    return peer == null ? "address unknown" : "address " + peer.hostAddress();
  }

  /** Sends the request and hands back the target's answer unrelayed, for callers that look at it first. */
  public Future<HttpClientResponse> send(Exchange exchange, Target target, MultiMap headers) {
    return send(client, exchange, target, pathPrefix.toOthers(RequestPaths.forwardedUri(exchange.request)), headers);
  }

  /** As {@link #send}, to the gateway (SIDECAR_FORWARD_UNKNOWN_REQUESTS), trusted by GW_CLIENT_TLS_TRUSTSTORE_*. */
  public Future<HttpClientResponse> sendToGateway(Exchange exchange, Target target, MultiMap headers) {
    return send(gatewayClient, exchange, target, pathPrefix.toOthers(RequestPaths.forwardedUri(exchange.request)),
      headers);
  }

  /** No module was asked, so the access line shows no module time (module_ms=-, no upstream times). */
  private static Future<HttpClientResponse> refusedBeforeTheModule(Exchange exchange, Throwable refusal) {
    exchange.moduleStartNanos = 0;
    return Future.failedFuture(refusal);
  }

  /**
   * Gets a connection and writes the head within SIDECAR_FORWARD_CONNECT_TIMEOUT, whatever REQUEST_TIMEOUT
   * allows for the answer: a request that cannot start in time is answered 502, and the connection it may get
   * later is closed at once rather than held. A header the client would refuse is refused before the pool is asked.
   */
  private Future<HttpClientResponse> send(HttpClient client, Exchange exchange, Target target, String uri,
    MultiMap headers) {
    tracing.dropCallersContext(headers);
    var problem = HeaderRules.problem(headers);
    if (problem != null) {
      return refusedBeforeTheModule(exchange, SidecarError.badRequest("Invalid request header", problem));
    }
    var request = exchange.request;
    if (request.response().closed()) {
      return callerGone();
    }
    var options = new RequestOptions()
      .setMethod(request.method())
      .setHost(target.host())
      .setPort(target.port())
      .setSsl(target.ssl())
      .setURI(target.basePath() + uri)
      .setHeaders(headers)
      .setConnectTimeout(connectTimeoutMillis)
      .setTraceOperation(Tracing.OPERATION_FORWARD);
    // REQUEST_TIMEOUT is how long the module may stay silent once it has the whole request; with a body it runs
    // from the body's end, so an upload that keeps moving is never cut however long it takes (MODSIDECAR-207),
    // while a pause on either side of a moving body is bounded by SIDECAR_REQUEST_BODY_TIMEOUT and the send deadline
    if (!exchange.hasBody) {
      options.setIdleTimeout(timeoutMillis);
    }
    boolean chunked = exchange.hasBody && !headers.contains(HttpHeaders.CONTENT_LENGTH);
    var caller = caller(exchange);
    if (caller != null && !claim(caller)) {
      return refusedBeforeTheModule(exchange, SidecarError.tooManyConnections(maxPerCaller));
    }
    var lease = new Lease(caller);
    Promise<HttpClientRequest> started = Promise.promise();
    long deadline = vertx.setTimer(connectTimeoutMillis, id -> started.tryFail(SidecarError.moduleUnavailable(
      "no connection to the target, or the request head not written, within " + connectTimeoutMillis + " ms")));
    client.request(options).onComplete(asked -> {
      if (asked.failed()) {
        lease.release();
        started.tryFail(asked.cause());
        return;
      }
      var outgoing = asked.result();
      // failures reach this request's futures; without a handler Vert.x also logs each one at ERROR, the reset
      // of every request a caller or a deadline ended ("Stream reset: 0") included
      outgoing.exceptionHandler(RequestForwarder::failureOnItsFuture);
      if (started.future().isComplete()) {
        lease.close(outgoing);
        return;
      }
      outgoing.setChunked(chunked);
      // without a body the request goes out whole, head and end in one write; a body streams after its head
      var head = exchange.hasBody ? outgoing.sendHead() : outgoing.end();
      head.onComplete(written -> {
        if (written.failed()) {
          lease.close(outgoing);
          started.tryFail(written.cause());
        } else if (!started.tryComplete(outgoing)) {
          lease.close(outgoing);
        }
      });
    });
    return started.future()
      .transform(result -> {
        vertx.cancelTimer(deadline);
        // nothing has reached the target yet: whatever went wrong, it could not be reached
        return result.succeeded()
          ? Future.succeededFuture(result.result())
          : Future.failedFuture(
            unreachable(result.cause()).causedBy(result.cause()));
      })
      .compose(outgoing -> {
        if (request.response().closed()) {
          // gone while the connection was got: its body (or its end) would never come
          abandon(outgoing);
          return callerGone();
        }
        var answer = outgoing.response();
        if (exchange.hasBody) {
          // a body the caller breaks off must not leave a half-sent request on the module's connection; a module
          // that stops reading it must not hold the caller's connection and its own past the send timeout
          relayBody(request, new SendDeadline(outgoing, vertx, sendTimeoutMillis, () -> {
            abandon(outgoing);
            resetCaller(request);
          })).onComplete(sent -> {
            if (sent.succeeded()) {
              outgoing.idleTimeout(timeoutMillis);
            } else {
              abandon(outgoing);
            }
          });
        } else {
          request.resume();
        }
        // a caller that leaves before the answer's head comes (a reset stream, a closed connection) frees its
        // module connection now, not when the module answers: else resets free the caller's streams while the
        // module connections they opened stay held, and count against SIDECAR_FORWARD_MAX_CONNECTIONS_PER_CALLER
        request.response().closeHandler(gone -> {
          if (!answer.isComplete()) {
            abandon(outgoing);
          }
        });
        return answer;
      })
      .transform(result -> {
        if (result.failed()) {
          if (started.future().succeeded()) {
            // the head went out on a connection this request held; it is released as the exchange failed
            lease.release();
          }
          return Future.failedFuture(toError(result.cause()).causedBy(result.cause()));
        }
        var answer = result.result();
        answer.end().onComplete(done -> lease.release());
        return Future.succeededFuture(answer);
      });
  }

  /** One request's claim on a pooled connection, counted once however it ends. Lives on one event loop. */
  private final class Lease {

    private final @Nullable String caller;
    private boolean released;

    Lease(@Nullable String caller) {
      this.caller = caller;
      held.incrementAndGet();
    }

    void release() {
      if (!released) {
        released = true;
        held.decrementAndGet();
        if (caller != null) {
          heldByCaller.computeIfPresent(caller, (key, count) -> count > 1 ? count - 1 : null);
        }
      }
    }

    /** A connection the request got but must not use: closing it frees its place in the pool. */
    void close(HttpClientRequest outgoing) {
      abandon(outgoing);
      release();
    }
  }

  /** Takes one of the caller's module connections, if it holds fewer than the cap. */
  private boolean claim(String caller) {
    var claimed = new boolean[1];
    heldByCaller.compute(caller, (key, count) -> {
      int now = count == null ? 0 : count;
      claimed[0] = now < maxPerCaller;
      return claimed[0] ? now + 1 : count;
    });
    return claimed[0];
  }

  private static void resetCaller(HttpServerRequest request) {
    if (!request.response().ended()) {
      request.response().reset();
    }
  }

  /**
   * Relays a target's answer to the caller, streamed; the future completes once the status line is out. A caller
   * that takes no byte for the send timeout has its stream reset and the target's connection closed.
   */
  public Future<Void> relay(HttpServerRequest request, HttpClientResponse answer) {
    var response = request.response();
    response.setStatusCode(answer.statusCode());
    response.setStatusMessage(answer.statusMessage());
    var headers = response.headers();
    headers.setAll(answer.headers());
    HopByHopHeaders.strip(headers);
    headers.remove(OkapiHeaders.SIGNATURE);
    int status = answer.statusCode();
    boolean mayHaveBody = !HttpMethod.HEAD.equals(request.method()) && status != 204 && status != 304 && status >= 200;
    if (mayHaveBody && !headers.contains("content-length")) {
      response.setChunked(true);
    }
    // a caller that takes no byte for the send timeout ends the relay as a failed write does
    var ended = endOf(answer);
    Runnable abort = () -> abort(request, answer, ended);
    relayBody(answer, new SendDeadline(new CallerStream(response), vertx, sendTimeoutMillis, abort))
      .onFailure(error -> abort.run());
    return Future.succeededFuture();
  }

  /**
   * The part of the answer already received is discarded first; then, in a task of its own, never from within the
   * failed write's notification: Netty's HTTP/1 encoder still holds the buffers of that write there, and a write
   * the reset makes (Vert.x writes an empty buffer before it closes) would hand them to the closed channel a second
   * time, which releases them a second time.
   */
  private static void abort(HttpServerRequest request, HttpClientResponse answer, Future<Void> ended) {
    answer.handler(null).resume();
    var context = Vertx.currentContext();
    if (context == null) {
      giveUp(request, answer, ended);
    } else {
      context.runOnContext(next -> giveUp(request, answer, ended));
    }
  }

  /**
   * The answer's end, asked for while the relay starts: once the answer has ended Vert.x throws on the question
   * (an uncaught IllegalStateException when a caller left just as the answer's end came in).
   */
  private static Future<Void> endOf(HttpClientResponse answer) {
    try {
      return answer.end();
    } catch (IllegalStateException alreadyEnded) {
      return Future.succeededFuture();
    }
  }

  /**
   * Ends a relay that failed. The status line is already out, so the only honest signal left to the caller is a
   * broken connection. The module's request is reset (its connection closed) only if its answer has still not
   * ended once the part received before has been discarded (its end comes behind that part): an answer that has
   * ended is not, as Vert.x would close its connection, which by then may carry another caller's request
   * (eclipse-vertx/vert.x#6294; that caller would get a 502).
   */
  private static void giveUp(HttpServerRequest request, HttpClientResponse answer, Future<Void> ended) {
    var response = request.response();
    if (!response.ended()) {
      if (request.version() == HttpVersion.HTTP_2) {
        response.reset();
      } else {
        dropConnection(request);
      }
    }
    if (!ended.isComplete()) {
      abandon(answer.request());
    }
  }

  /**
   * Vert.x's reset of an HTTP/1 response whose head is out, like its close of the connection, closes only once one
   * more write has drained, which a caller that reads nothing never lets happen; the reset also marks the response
   * closed first, so the connection's close would end no handler and the access line would never be written. The
   * close is sent from the pipeline's first handler, past Vert.x's, and ends the response as a caller leaving does.
   * It resets the connection, as nginx's {@code reset_timedout_connection}: a close would leave the unsent bytes
   * to the kernel, which keeps offering them to a window that stays shut.
   */
  private static void dropConnection(HttpServerRequest request) {
    var channel = ((ConnectionBase) request.connection()).channel();
    // a caller that left first has closed it, and a closed socket takes no option
    if (channel.isOpen()) {
      channel.config().setOption(ChannelOption.SO_LINGER, 0);
      var unused = channel.pipeline().firstContext().close();
    }
  }

  /**
   * Streams a body with back-pressure; if either side fails, the relay resets the other, and the body is never
   * ended. Vert.x's pipe would end it: a body cut short would then look whole to the module (a truncated chunked
   * upload) or to the caller (a truncated chunked answer). And ending it is a write from within the failed write's
   * notification: on a caller's connection that is already closing, Netty's HTTP/1 encoder still holds the
   * buffers of the failed write and hands them to the closed channel a second time, which releases them a second
   * time (IllegalReferenceCountException; a pooled buffer freed twice may be another connection's by then).
   */
  private static <T> Future<Void> relayBody(ReadStream<T> body, WriteStream<T> to) {
    return body.pipe().endOnFailure(false).to(to);
  }

  /** Resets a request this sidecar gives up on; its module connection is closed, not reused. */
  private static void abandon(HttpClientRequest outgoing) {
    outgoing.reset();
  }

  private static void failureOnItsFuture(Throwable failure) {
    // handled where the request's futures fail
  }

  private static <T> Future<T> callerGone() {
    return Future.failedFuture(SidecarError.moduleUnavailable("the caller closed the request before it was forwarded"));
  }

  private static SidecarError unreachable(Throwable cause) {
    if (cause instanceof SidecarError error) {
      return error;
    }
    if (cause instanceof ConnectException) {
      return SidecarError.moduleUnavailable("connection refused by " + cause.getMessage());
    }
    return SidecarError.moduleUnavailable(cause.getClass().getSimpleName());
  }

  private static SidecarError toError(Throwable cause) {
    if (cause instanceof SidecarError error) {
      return error;
    }
    if (cause.getClass().getSimpleName().contains("Timeout")) {
      return SidecarError.moduleTimeout();
    }
    if (cause instanceof ConnectException) {
      return SidecarError.moduleUnavailable("connection refused by " + cause.getMessage());
    }
    return SidecarError.moduleUnavailable(cause.getClass().getSimpleName());
  }
}
