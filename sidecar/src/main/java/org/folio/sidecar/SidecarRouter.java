package org.folio.sidecar;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.folio.sidecar.config.EgressConfig;
import org.folio.sidecar.config.SidecarConfig;
import org.folio.sidecar.config.TenantConfig;
import org.folio.sidecar.egress.EgressHandler;
import org.folio.sidecar.egress.TenantEgressRoutes;
import org.folio.sidecar.error.ErrorResponder;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.forward.AccessLog;
import org.folio.sidecar.forward.AccessLogWriter;
import org.folio.sidecar.forward.Exchange;
import org.folio.sidecar.forward.LogEscape;
import org.folio.sidecar.forward.MethodOverrides;
import org.folio.sidecar.forward.HeaderRules;
import org.folio.sidecar.forward.OkapiHeaders;
import org.folio.sidecar.forward.RequestIds;
import org.folio.sidecar.forward.RequestLogContext;
import org.folio.sidecar.health.HealthRoutes;
import org.folio.sidecar.ingress.IngressHandler;
import org.folio.sidecar.routing.ModulePathPrefix;
import org.folio.sidecar.routing.RoutingTableProvider;
import org.folio.sidecar.tenant.ModuleEntitlementsRoute;
import org.folio.sidecar.token.TenantNames;
import org.folio.sidecar.tracing.Tracing;
import org.jboss.logging.Logger;

/**
 * Every request's way in: the sidecar's own endpoints first (health, the module entitlement list), then the
 * module's endpoints (ingress), then the endpoints of the modules it requires (egress), then a hinted module
 * (dynamic routing), then the gateway or a 404, as upstream orders them. Also owns what all of them share:
 * pausing the body, the request id, header checks, {@code x-response-time}, the access line and the error answer.
 */
@Singleton
public class SidecarRouter {

  private static final Logger LOGGER = Logger.getLogger(SidecarRouter.class);
  private static final String QUARKUS_ENDPOINTS = "/q/";
  // headers whose second copy would let a check read one value while the module acts on another
  private static final String[] SINGLE_VALUED = {OkapiHeaders.TENANT, OkapiHeaders.AUTHORIZATION, OkapiHeaders.TOKEN,
    OkapiHeaders.SYSTEM_TOKEN};

  private final RoutingTableProvider routes;
  private final IngressHandler ingress;
  private final EgressHandler egress;
  private final TenantEgressRoutes tenantRoutes;
  private final AccessLog accessLog;
  private final ErrorResponder errors;
  private final AccessLogWriter logWriter;
  private final boolean forwardUnknown;
  private final boolean dynamicRouting;
  private final boolean moduleEntitlementEndpoint;
  private final long maxBodySize;
  private final ModulePathPrefix pathPrefix;
  private final Tracing tracing;

  SidecarRouter(RoutingTableProvider routes, IngressHandler ingress, EgressHandler egress,
    TenantEgressRoutes tenantRoutes, AccessLog accessLog, AccessLogWriter logWriter, ErrorResponder errors,
    EgressConfig egressConfig, SidecarConfig sidecarConfig, TenantConfig tenantConfig, ModulePathPrefix pathPrefix,
    Tracing tracing) {
    this.pathPrefix = pathPrefix;
    this.tracing = tracing;
    this.tenantRoutes = tenantRoutes;
    this.logWriter = logWriter;
    this.routes = routes;
    this.ingress = ingress;
    this.egress = egress;
    this.accessLog = accessLog;
    this.errors = errors;
    this.forwardUnknown = egressConfig.forwardUnknownRequests();
    this.dynamicRouting = egressConfig.dynamicRoutingEnabled();
    this.moduleEntitlementEndpoint = tenantConfig.moduleEntitlementEndpoint();
    this.maxBodySize = sidecarConfig.maxBodySize();
  }

  void register(@Observes Router router, HealthRoutes health, ModuleEntitlementsRoute moduleEntitlements) {
    router.get("/admin/health").handler(health::all);
    router.get("/admin/health/ready").handler(health::ready);
    router.get("/admin/health/live").handler(health::live);
    router.get("/admin/health/started").handler(health::live);
    if (moduleEntitlementEndpoint) {
      router.get(ModuleEntitlementsRoute.PATH_PREFIX + "*").handler(moduleEntitlements::handle);
    }
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
    var response = request.response();
    // upstream v4's x-response-time: the sidecar's whole time, up to the answer's headers
    response.headersEndHandler(done -> response.putHeader(OkapiHeaders.RESPONSE_TIME,
      (System.nanoTime() - exchange.startNanos) / 1_000_000 + "ms"));
    context.addEndHandler(done -> accessLog.record(exchange, response.getStatusCode()));
    try {
      route(exchange).onFailure(cause -> reject(exchange, cause instanceof SidecarError error
        ? error
        : SidecarError.internal(cause.getClass().getSimpleName()).causedBy(cause)));
    } catch (SidecarError error) {
      reject(exchange, error);
    }
  }

  private Future<Void> route(Exchange exchange) {
    var headers = exchange.request.headers();
    exchange.traceId = tracing.traceId(exchange.request);
    if (exchange.path == null || exchange.path.isEmpty() || exchange.path.charAt(0) != '/') {
      exchange.requestId = headers.get(OkapiHeaders.REQUEST_ID);
      RequestLogContext.set(exchange);
      throw SidecarError.badRequest("Invalid request path");
    }
    exchange.requestId = RequestIds.next(headers.get(OkapiHeaders.REQUEST_ID), exchange.path);
    RequestLogContext.set(exchange);
    if (exchange.pathRefused) {
      throw SidecarError.badRequest("Invalid request path",
        "dot segment, encoded separator, ';' or control character in the path");
    }
    if (exchange.request.version() == HttpVersion.HTTP_2) {
      // HTTP/1.1 requests were held to these rules by the decoder; HTTP/2 ones are held to them here
      var problem = HeaderRules.http2Problem(exchange.request);
      if (problem != null) {
        throw SidecarError.badRequest("Invalid request header", problem);
      }
    }
    checkSingleValued(headers);
    var override = MethodOverrides.found(headers, exchange.request.query());
    if (override != null) {
      throw SidecarError.badRequest("Method override is not accepted", override + " names another method than the"
        + " one authorized");
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
    var moduleId = headers.get(OkapiHeaders.MODULE_ID);
    var routingPath = pathPrefix.routingPath(exchange.path);
    var ownEndpoint = current.ingress().lookup(exchange.method, routingPath, moduleId, false);
    if (ownEndpoint != null) {
      exchange.entry = ownEndpoint;
      tracing.route(ownEndpoint.staticPath());
      exchange.direction = Exchange.Direction.INGRESS;
      traceRoute(exchange);
      return ingress.process(exchange);
    }
    // tenant-scoped routing: the egress table of the request's tenant
    var egressRoutes = tenantRoutes.enabled() ? tenantRoutes.routesFor(tenant, current) : current;
    var dependency = egressRoutes.egress().lookup(exchange.method, routingPath, moduleId, true);
    if (dependency != null) {
      exchange.entry = dependency;
      tracing.route(dependency.staticPath());
      exchange.direction = Exchange.Direction.EGRESS;
      traceRoute(exchange);
      return egress.process(exchange, egressRoutes);
    }
    var hint = dynamicRouting ? headers.get(OkapiHeaders.MODULE_HINT) : null;
    if (hint != null || forwardUnknown) {
      exchange.direction = Exchange.Direction.EGRESS;
    }
    if (hint != null) {
      return egress.processHinted(exchange, current, hint);
    }
    if (forwardUnknown) {
      return egress.process(exchange, egressRoutes);
    }
    throw SidecarError.routeNotFound(exchange.method, exchange.path);
  }

  /** SC_LOG_LEVEL=TRACE: which way a request goes. Checked first, so that nothing is formatted when it is off. */
  private static void traceRoute(Exchange exchange) {
    if (LOGGER.isTraceEnabled()) {
      LOGGER.tracef("Routing [method: %s, path: %s, tenant: %s] as %s, request id %s", exchange.method,
        exchange.path, exchange.tenant, exchange.direction, exchange.requestId);
    }
  }

  private static void checkSingleValued(MultiMap headers) {
    for (var name : SINGLE_VALUED) {
      if (headers.contains(name) && headers.getAll(name).size() > 1) {
        throw SidecarError.badRequest("Ambiguous request: more than one " + name + " header");
      }
    }
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

  private void reject(Exchange exchange, SidecarError error) {
    var request = exchange.request;
    exchange.rejection = error.reason();
    // as upstream, every answer the sidecar gives itself is a WARN line with upstream master's type, message,
    // cause, stage and elapsed time (MODSIDECAR-199); here also the status, code and reason, off the event loop.
    // A refusal its source counts (made-up realms) has its access line only: a flood must not become a log flood.
    // The path, the request id and the reason may hold what a caller sent: escaped, so the line stays one line
    if (!error.isCounted()) {
      logWriter.warn(LOGGER, "Sending error response for [method: " + exchange.method + ", path: "
        + LogEscape.escape(exchange.path) + ", requestId: " + LogEscape.escape(exchange.requestId) + "]: type = "
        + error.type() + ", message = " + LogEscape.escape(error.getMessage())
        + ", cause = " + error.rootCauseType() + ", stage = " + exchange.stage
        + ", elapsed = " + (System.nanoTime() - exchange.startNanos) / 1_000_000 + "ms, status = " + error.status()
        + ", code = " + error.code() + (error.reason() == null ? "" : ", reason = " + LogEscape.escape(error.reason())),
        exchange.requestId, exchange.traceId);
    }
    if (!request.isEnded()) {
      if (exchange.hasBody && request.version() != HttpVersion.HTTP_2) {
        // an unread HTTP/1 body stays unread: closing is cheaper than draining it and keeps the connection sane
        request.response().putHeader(HttpHeaders.CONNECTION, "close");
      } else {
        request.resume();
      }
    }
    errors.respond(request.response(), error);
  }
}
