package org.folio.sidecar.egress;

import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.folio.sidecar.config.EgressConfig;
import org.folio.sidecar.config.ModuleConfig;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.forward.Exchange;
import org.folio.sidecar.forward.HttpBodies;
import org.folio.sidecar.forward.OkapiHeaders;
import org.folio.sidecar.forward.RequestForwarder;
import org.folio.sidecar.forward.Target;
import org.folio.sidecar.routing.ModuleRoutes;
import org.folio.sidecar.token.ServiceTokens;
import org.folio.sidecar.token.SystemUserTokens;

/**
 * Requests from the module to other modules: finds the target (configured override, else the discovered
 * location; a hinted module's discovered location with dynamic routing; the gateway for unknown routes when
 * enabled), attaches the tenant's shared service token as {@code x-system-token} and, when the module sent no
 * user token, its system user's token, and forwards. A target that refuses the service token gets a fresh
 * one: bodiless idempotent requests are retried once transparently, others get upstream's 503 with Retry-After.
 */
@Singleton
public class EgressHandler {

  private static final Set<HttpMethod> REPLAYABLE = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.DELETE,
    HttpMethod.OPTIONS);
  private static final String GATEWAY = "gateway";

  private final RequestForwarder forwarder;
  private final ServiceTokens tokens;
  private final SystemUserTokens systemUserTokens;
  private final RouteOverrides overrides;
  private final DynamicRoutes dynamicRoutes;
  private final EgressMetrics metrics;
  private final boolean loopbackOnly;
  private final boolean ignoreSystemUserTokenError;
  private final String moduleId;
  private final Target gateway;
  private final Map<String, Target> targets = new ConcurrentHashMap<>();

  EgressHandler(RequestForwarder forwarder, ServiceTokens tokens, SystemUserTokens systemUserTokens,
    RouteOverrides overrides, DynamicRoutes dynamicRoutes, EgressConfig config, ModuleConfig module,
    MeterRegistry registry) {
    this.forwarder = forwarder;
    this.tokens = tokens;
    this.systemUserTokens = systemUserTokens;
    this.overrides = overrides;
    this.dynamicRoutes = dynamicRoutes;
    this.metrics = new EgressMetrics(registry, GATEWAY);
    this.loopbackOnly = config.loopbackOnly();
    this.ignoreSystemUserTokenError = config.ignoreSystemUserTokenError();
    this.moduleId = module.moduleId();
    this.gateway = Target.parse(config.forwardUnknownRequestsDestination());
  }

  /** Forwards {@code exchange} to the module owning {@code exchange.entry}, or to the gateway when it is null. */
  public Future<Void> process(Exchange exchange, ModuleRoutes routes) {
    admit(exchange);
    var entry = exchange.entry;
    if (entry == null) {
      return send(exchange, routes, GATEWAY, gateway);
    }
    var module = ModuleRoutes.moduleName(entry.moduleId());
    var location = overrides.locationFor(module, entry.interfaceId())
      .orElseGet(() -> routes.locationByModuleId().get(entry.moduleId()));
    if (location == null) {
      metrics.routingFailed(module);
      throw SidecarError.locationNotFound(entry.moduleId());
    }
    return send(exchange, routes, module, target(location));
  }

  /** Forwards {@code exchange} to the module {@code hint} names (ROUTING_DYNAMIC_ENABLED); no route entry. */
  public Future<Void> processHinted(Exchange exchange, ModuleRoutes routes, String hint) {
    admit(exchange);
    return dynamicRoutes.locate(exchange.tenant, hint).compose(found -> {
      var name = ModuleRoutes.moduleName(found.moduleId());
      var location = overrides.locationFor(name, "").orElse(found.location());
      return send(exchange, routes, name, target(location));
    });
  }

  private void admit(Exchange exchange) {
    if (!EgressGuard.allows(exchange.request.remoteAddress(), loopbackOnly)) {
      throw SidecarError.egressNotAllowed();
    }
    if (exchange.tenant == null) {
      throw SidecarError.badRequest("x-okapi-tenant header is required");
    }
  }

  private Target target(String location) {
    return targets.computeIfAbsent(location, Target::parse);
  }

  private Future<Void> send(Exchange exchange, ModuleRoutes routes, String module, Target target) {
    var request = exchange.request;
    var tenant = exchange.tenant;
    long started = System.nanoTime();
    exchange.moduleStartNanos = started;
    boolean replayable = isReplayable(request);
    var userToken = userToken(exchange, routes);
    // identity, not equality: a module may live at the gateway's address, yet it is trusted as a module
    @SuppressWarnings("ReferenceEquality")
    boolean gatewayBound = target == gateway;
    return userToken.compose(user -> tokens.token(tenant)
      .compose(token -> send(gatewayBound, request, target, headers(exchange, token, user, routes))))
      .compose(answer -> {
        if (answer.statusCode() != 401) {
          return Future.succeededFuture(answer);
        }
        // the target refused our token: drop it, get a new one, and retry once if the request can be replayed
        tokens.evict(tenant);
        answer.end();
        if (!replayable) {
          request.response().putHeader("Retry-After", "1");
          return Future.failedFuture(SidecarError.targetRejectedToken());
        }
        return tokens.token(tenant)
          .compose(token -> send(gatewayBound, request, target, headers(exchange, token, userToken.result(), routes)));
      })
      .compose(answer -> {
        exchange.moduleAnsweredNanos = System.nanoTime();
        return RequestForwarder.relay(request, answer);
      })
      .onComplete(result -> metrics.record(module, result, request.response().getStatusCode(),
        System.nanoTime() - started));
  }

  private Future<HttpClientResponse> send(boolean gatewayBound, HttpServerRequest request, Target target,
    MultiMap headers) {
    return gatewayBound ? forwarder.sendToGateway(request, target, headers) : forwarder.send(request, target, headers);
  }

  /**
   * The user token the target gets: the module's own when it sent one (an Authorization header alone does not
   * count, as upstream), else its system user's when the bootstrap requires one; null to forward without.
   */
  private Future<String> userToken(Exchange exchange, ModuleRoutes routes) {
    var sent = exchange.request.getHeader(OkapiHeaders.TOKEN);
    if (sent != null && !sent.isBlank() && !"null".equalsIgnoreCase(sent.trim())) {
      return Future.succeededFuture();
    }
    var systemUser = routes.systemUserRequired()
      ? systemUserTokens.token(exchange.tenant)
      : Future.<String>failedFuture(SidecarError.systemUserTokenRequired(moduleId));
    return ignoreSystemUserTokenError ? systemUser.otherwise((String) null) : systemUser;
  }

  private static MultiMap headers(Exchange exchange, String serviceToken, String userToken, ModuleRoutes routes) {
    var headers = exchange.forwardHeaders();
    headers.set(OkapiHeaders.SYSTEM_TOKEN, serviceToken);
    if (userToken != null) {
      headers.set(OkapiHeaders.TOKEN, userToken);
    }
    if (exchange.entry != null && !exchange.entry.permissionsDesired().isEmpty()) {
      headers.set(OkapiHeaders.PERMISSIONS,
        new JsonArray(routes.modulePermissionsFor(exchange.entry.permissionsDesired())).encode());
    }
    return headers;
  }

  static boolean isReplayable(HttpServerRequest request) {
    return REPLAYABLE.contains(request.method()) && !HttpBodies.hasBody(request);
  }
}
