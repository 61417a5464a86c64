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
import org.jboss.logging.Logger;
import org.folio.sidecar.config.EgressConfig;
import org.folio.sidecar.config.ModuleConfig;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.forward.Exchange;
import org.folio.sidecar.forward.OkapiHeaders;
import org.folio.sidecar.forward.Peers;
import org.folio.sidecar.forward.RequestForwarder;
import org.folio.sidecar.forward.Stage;
import org.folio.sidecar.forward.Target;
import org.folio.sidecar.routing.ModuleRoutes;
import org.folio.sidecar.tenant.TenantEntitlements;
import org.folio.sidecar.tenant.TenantInstalls;
import org.folio.sidecar.token.ServiceTokens;
import org.folio.sidecar.token.SystemUserTokens;

/**
 * Requests from the module to other modules: finds the target (configured override, else the discovered
 * location; a hinted module's discovered location with dynamic routing; the gateway for unknown routes when
 * enabled), attaches the tenant's shared service token as {@code x-system-token} and, when the module sent no
 * user token, its system user's token, and forwards. A target's 401 replaces the service token only when the
 * token is old enough to be the reason (SIDECAR_REFUSED_TOKEN_MIN_AGE): then bodiless idempotent requests are
 * retried once transparently, others get upstream's 503 with Retry-After; any other 401 reaches the module as is.
 */
@Singleton
public class EgressHandler {

  private static final Set<HttpMethod> REPLAYABLE = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.DELETE,
    HttpMethod.OPTIONS);
  private static final String GATEWAY = "gateway";

  private final RequestForwarder forwarder;
  private final ServiceTokens tokens;
  private final SystemUserTokens systemUserTokens;
  private static final Logger LOGGER = Logger.getLogger(EgressHandler.class);
  private final RouteOverrides overrides;
  private final DynamicRoutes dynamicRoutes;
  private final EgressMetrics metrics;
  private final Peers peers;
  private final TenantEntitlements entitlements;
  private final TenantInstalls installs;
  private final boolean loopbackOnly;
  private final boolean ignoreSystemUserTokenError;
  private final String moduleId;
  private final Target gateway;
  private final Map<String, Target> targets = new ConcurrentHashMap<>();

  EgressHandler(RequestForwarder forwarder, ServiceTokens tokens, SystemUserTokens systemUserTokens,
    RouteOverrides overrides, DynamicRoutes dynamicRoutes, EgressConfig config, ModuleConfig module,
    MeterRegistry registry, Peers peers, TenantEntitlements entitlements, TenantInstalls installs) {
    this.peers = peers;
    this.entitlements = entitlements;
    this.installs = installs;
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
      if (LOGGER.isDebugEnabled()) {
        LOGGER.debugf("Egress route for tenant %s: no module has the endpoint, to the gateway", exchange.tenant);
      }
      return send(exchange, routes, GATEWAY, gateway);
    }
    var module = ModuleRoutes.moduleName(entry.moduleId());
    var override = overrides.locationFor(module, entry.interfaceId());
    var location = override.orElseGet(() -> routes.locationByModuleId().get(entry.moduleId()));
    if (location == null) {
      metrics.routingFailed(module);
      throw SidecarError.locationNotFound(entry.moduleId());
    }
    if (LOGGER.isDebugEnabled()) {
      LOGGER.debugf("Egress route for tenant %s: interface %s of %s at %s (%s)", exchange.tenant,
        entry.interfaceId(), module, location, override.isPresent() ? "route override" : "discovered");
    }
    return send(exchange, routes, module, target(location));
  }

  /** Forwards {@code exchange} to the module {@code hint} names (ROUTING_DYNAMIC_ENABLED); no route entry. */
  public Future<Void> processHinted(Exchange exchange, ModuleRoutes routes, String hint) {
    admit(exchange);
    exchange.stage = Stage.DYNAMIC_ROUTING;
    return dynamicRoutes.locate(exchange.tenant, hint).compose(found -> {
      var name = ModuleRoutes.moduleName(found.moduleId());
      var location = overrides.locationFor(name, "").orElse(found.location());
      if (LOGGER.isDebugEnabled()) {
        LOGGER.debugf("Egress route for tenant %s: module %s at %s (dynamic routing)", exchange.tenant, name,
          location);
      }
      return send(exchange, routes, name, target(location));
    });
  }

  /**
   * The pod itself, for a tenant this module serves: entitled, or whose install the module is running. Never
   * {@code master}: the module acts for tenants, and master's only client here is the platform's administrator.
   */
  private void admit(Exchange exchange) {
    if (!EgressGuard.allows(exchange.request.remoteAddress(), loopbackOnly, peers)) {
      throw SidecarError.egressNotAllowed();
    }
    var tenant = exchange.tenant;
    if (tenant == null) {
      throw SidecarError.badRequest("x-okapi-tenant header is required");
    }
    if (!entitlements.loaded()) {
      throw SidecarError.notReady("tenant entitlements are not loaded yet");
    }
    if (ServiceTokens.MASTER.equals(tenant) || !(entitlements.allows(tenant) || installs.inFlight(tenant))) {
      throw SidecarError.tenantNotEnabled(tenant);
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
    boolean replayable = isReplayable(exchange);
    var userToken = userToken(exchange, routes);
    // identity, not equality: a module may live at the gateway's address, yet it is trusted as a module
    @SuppressWarnings("ReferenceEquality")
    boolean gatewayBound = target == gateway;
    return userToken.compose(user -> {
      exchange.stage = Stage.SERVICE_TOKEN;
      return tokens.token(tenant).compose(token -> {
        exchange.stage = Stage.FORWARDING;
        return send(gatewayBound, exchange, target, headers(exchange, token, user, routes));
      });
    })
      .compose(answer -> {
        // only a 401 that can be about the service token replaces it (ServiceTokens.evictRefused); others are
        // the module's to see, unchanged
        if (answer.statusCode() != 401 || !tokens.evictRefused(tenant)) {
          return Future.succeededFuture(answer);
        }
        // the target refused our token: a new one, and one retry if the request can be replayed
        answer.end();
        if (!replayable) {
          request.response().putHeader("Retry-After", "1");
          return Future.failedFuture(SidecarError.targetRejectedToken());
        }
        return tokens.token(tenant)
          .compose(token -> send(gatewayBound, exchange, target, headers(exchange, token, userToken.result(), routes)));
      })
      .compose(answer -> {
        exchange.moduleAnsweredNanos = System.nanoTime();
        return forwarder.relay(request, answer);
      })
      .onComplete(result -> metrics.record(module, result, request.response().getStatusCode(),
        System.nanoTime() - started));
  }

  private Future<HttpClientResponse> send(boolean gatewayBound, Exchange exchange, Target target, MultiMap headers) {
    return gatewayBound
      ? forwarder.sendToGateway(exchange, target, headers)
      : forwarder.send(exchange, target, headers);
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
    if (!routes.systemUserRequired()) {
      return ignoreSystemUserTokenError
        ? Future.succeededFuture()
        : Future.failedFuture(SidecarError.systemUserTokenRequired(moduleId));
    }
    exchange.stage = Stage.SYSTEM_USER_TOKEN;
    var systemUser = systemUserTokens.token(exchange.tenant);
    if (ignoreSystemUserTokenError) {
      return systemUser.otherwise((String) null);
    }
    // fail fast rather than let the target act without a user: the caller may retry once the token can be had
    return systemUser.recover(error -> {
      exchange.request.response().putHeader("Retry-After", "1");
      return Future.failedFuture(SidecarError.systemUserTokenUnavailable(switch (error) {
        case SidecarError cause when cause.reason() != null -> cause.reason();
        case SidecarError cause -> cause.getMessage();
        default -> error.getClass().getSimpleName();
      }).causedBy(error));
    });
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

  static boolean isReplayable(Exchange exchange) {
    return REPLAYABLE.contains(exchange.request.method()) && !exchange.hasBody;
  }
}
