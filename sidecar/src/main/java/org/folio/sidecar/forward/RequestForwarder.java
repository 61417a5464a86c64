package org.folio.sidecar.forward;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import jakarta.inject.Singleton;
import java.net.ConnectException;
import org.folio.sidecar.config.SidecarConfig;
import org.folio.sidecar.config.TlsConfig;
import org.folio.sidecar.config.TlsOptions;
import org.folio.sidecar.routing.ModulePathPrefix;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.tracing.Tracing;

/**
 * Streams a caller's request to a target and the target's answer back, with back-pressure both ways: neither
 * body is ever held in memory whole, so a 100 MB upload costs a few buffers.
 */
@Singleton
public class RequestForwarder {

  private final HttpClient client;
  private final HttpClient gatewayClient;
  private final long timeoutMillis;
  private final ModulePathPrefix pathPrefix;
  private final Tracing tracing;

  RequestForwarder(Vertx vertx, SidecarConfig config, TlsConfig tls, ModulePathPrefix pathPrefix, Tracing tracing) {
    this.pathPrefix = pathPrefix;
    this.tracing = tracing;
    this.timeoutMillis = config.requestTimeout();
    this.client = vertx.createHttpClient(TlsOptions.trust(options(), tls.forwarding(), tls.verifyHostname(),
      "SC_CLIENT_TLS_TRUSTSTORE"), new PoolOptions().setHttp1MaxSize(500));
    // the gateway is trusted by its own truststore, as upstream: it is often fronted by another CA than modules
    this.gatewayClient = vertx.createHttpClient(TlsOptions.trust(options(), tls.gateway(), tls.verifyHostname(),
      "GW_CLIENT_TLS_TRUSTSTORE"), new PoolOptions().setHttp1MaxSize(200));
  }

  private HttpClientOptions options() {
    return new HttpClientOptions().setKeepAlive(true)
      .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, timeoutMillis));
  }

  /**
   * Sends the request with {@code headers} (already filtered by the caller) and starts relaying the answer.
   * The future completes when the target's status line has been relayed, or fails with a {@link SidecarError}
   * (502 unreachable, 504 timed out) while the caller can still be told.
   */
  public Future<Void> forward(HttpServerRequest request, Target target, MultiMap headers) {
    return send(client, request, target, pathPrefix.toModule(RequestPaths.forwardedUri(request)), headers)
      .compose(answer -> relay(request, answer));
  }

  /** Sends the request and hands back the target's answer unrelayed, for callers that look at it first. */
  public Future<HttpClientResponse> send(HttpServerRequest request, Target target, MultiMap headers) {
    return send(client, request, target, pathPrefix.toOthers(RequestPaths.forwardedUri(request)), headers);
  }

  /** As {@link #send}, to the gateway (SIDECAR_FORWARD_UNKNOWN_REQUESTS), trusted by GW_CLIENT_TLS_TRUSTSTORE_*. */
  public Future<HttpClientResponse> sendToGateway(HttpServerRequest request, Target target, MultiMap headers) {
    return send(gatewayClient, request, target, pathPrefix.toOthers(RequestPaths.forwardedUri(request)), headers);
  }

  private Future<HttpClientResponse> send(HttpClient client, HttpServerRequest request, Target target, String uri,
    MultiMap headers) {
    tracing.dropCallersContext(headers);
    var options = new RequestOptions()
      .setMethod(request.method())
      .setHost(target.host())
      .setPort(target.port())
      .setSsl(target.ssl())
      .setURI(target.basePath() + uri)
      .setHeaders(headers)
      .setConnectTimeout(timeoutMillis)
      .setIdleTimeout(timeoutMillis)
      .setTraceOperation(Tracing.OPERATION_FORWARD);
    boolean hasBody = HttpBodies.hasBody(request);
    return client.request(options)
      .compose(outgoing -> {
        if (hasBody) {
          return outgoing.send(request);
        }
        request.resume();
        return outgoing.send();
      })
      .transform(result -> result.succeeded()
        ? Future.succeededFuture(result.result())
        : Future.failedFuture(toError(result.cause()).causedBy(result.cause())));
  }

  /** Relays a target's answer to the caller, streamed; the future completes once the status line is out. */
  public static Future<Void> relay(HttpServerRequest request, HttpClientResponse answer) {
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
    answer.pipeTo(response).onFailure(error -> {
      // the status line is already out, so the only honest signal left is a broken connection
      if (!response.ended()) {
        response.reset();
      }
    });
    return Future.succeededFuture();
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
