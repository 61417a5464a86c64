package org.folio.sidecar;

import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.util.concurrent.ThreadLocalRandom;
import org.folio.sidecar.config.EgressConfig;
import org.folio.sidecar.config.SidecarConfig;
import org.folio.sidecar.egress.EgressHandler;
import org.folio.sidecar.error.ErrorResponder;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.forward.AccessLog;
import org.folio.sidecar.forward.Exchange;
import org.folio.sidecar.forward.OkapiHeaders;
import org.folio.sidecar.health.HealthRoutes;
import org.folio.sidecar.ingress.IngressHandler;
import org.folio.sidecar.routing.RoutingTableProvider;
import org.folio.sidecar.token.TenantNames;

/**
 * Every request's way in: the sidecar's own endpoints first, then the module's endpoints (ingress), then the
 * endpoints of the modules it requires (egress), then the gateway or a 404, as upstream orders them. Also owns
 * what all of them share: pausing the body, the request id, header checks, the access line and the error answer.
 */
@Singleton
public class SidecarRouter {

  private static final String QUARKUS_ENDPOINTS = "/q/";

  private final RoutingTableProvider routes;
  private final IngressHandler ingress;
  private final EgressHandler egress;
  private final AccessLog accessLog;
  private final boolean forwardUnknown;
  private final long maxBodySize;

  SidecarRouter(RoutingTableProvider routes, IngressHandler ingress, EgressHandler egress, AccessLog accessLog,
    EgressConfig egressConfig, SidecarConfig sidecarConfig) {
    this.routes = routes;
    this.ingress = ingress;
    this.egress = egress;
    this.accessLog = accessLog;
    this.forwardUnknown = egressConfig.forwardUnknownRequests();
    this.maxBodySize = sidecarConfig.maxBodySize();
  }

  void register(@Observes Router router, HealthRoutes health) {
    router.get("/admin/health").handler(health::ready);
    router.get("/admin/health/ready").handler(health::ready);
    router.get("/admin/health/live").handler(health::live);
    router.get("/admin/health/started").handler(health::live);
    router.route().handler(context -> {
      var path = context.request().path();
      if (path != null && path.startsWith(QUARKUS_ENDPOINTS)) {
        context.next();
      } else {
        dispatch(context);
      }
    });
  }

  private void dispatch(RoutingContext context) {
    var request = context.request();
    // the body waits for the verdict and is streamed on only after it
    request.pause();
    var exchange = new Exchange(request, System.nanoTime());
    context.addEndHandler(done -> accessLog.record(exchange, request.response().getStatusCode()));
    try {
      route(exchange).onFailure(cause -> reject(request, cause instanceof SidecarError error ? error
        : SidecarError.internal(cause.getClass().getSimpleName())));
    } catch (SidecarError error) {
      reject(request, error);
    }
  }

  private Future<Void> route(Exchange exchange) {
    var headers = exchange.request.headers();
    exchange.requestId = requestId(headers.get(OkapiHeaders.REQUEST_ID));
    if (exchange.path == null || exchange.path.isEmpty() || exchange.path.charAt(0) != '/') {
      throw SidecarError.badRequest("Invalid request path");
    }
    var tenant = headers.get(OkapiHeaders.TENANT);
    if (tenant != null && !TenantNames.isValid(tenant)) {
      throw SidecarError.badRequest("Invalid x-okapi-tenant header");
    }
    exchange.tenant = tenant;
    checkBodySize(headers.get(HttpHeaders.CONTENT_LENGTH));
    if (!routes.loaded()) {
      throw SidecarError.notReady("routes are not loaded from mgr-applications yet");
    }
    var current = routes.routes();
    exchange.entry = current.ingress().lookup(exchange.method, exchange.path);
    if (exchange.entry != null) {
      return ingress.process(exchange);
    }
    exchange.entry = current.egress().lookup(exchange.method, exchange.path);
    if (exchange.entry != null || forwardUnknown) {
      return egress.process(exchange, current);
    }
    throw SidecarError.routeNotFound(exchange.method, exchange.path);
  }

  private void checkBodySize(String contentLength) {
    if (contentLength == null) {
      return;
    }
    long length;
    try {
      length = Long.parseLong(contentLength.trim());
    } catch (NumberFormatException e) {
      throw SidecarError.badRequest("Invalid content-length header");
    }
    if (length < 0) {
      throw SidecarError.badRequest("Invalid content-length header");
    }
    if (length > maxBodySize) {
      throw SidecarError.payloadTooLarge(maxBodySize);
    }
  }

  private static void reject(HttpServerRequest request, SidecarError error) {
    if (!request.isEnded()) {
      if (hasBody(request) && request.version() != HttpVersion.HTTP_2) {
        // an unread HTTP/1 body stays unread: closing is cheaper than draining it and keeps the connection sane
        request.response().putHeader(HttpHeaders.CONNECTION, "close");
      } else {
        request.resume();
      }
    }
    ErrorResponder.respond(request.response(), error);
  }

  public static boolean hasBody(HttpServerRequest request) {
    var length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
    return (length != null && !"0".equals(length)) || request.headers().contains(HttpHeaders.TRANSFER_ENCODING);
  }

  private static String requestId(String given) {
    if (given != null && !given.isBlank()) {
      return given;
    }
    return String.valueOf(100_000 + ThreadLocalRandom.current().nextInt(900_000));
  }
}
