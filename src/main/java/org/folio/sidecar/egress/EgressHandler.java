package org.folio.sidecar.egress;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.folio.sidecar.SidecarRouter;
import org.folio.sidecar.config.EgressConfig;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.forward.Exchange;
import org.folio.sidecar.forward.OkapiHeaders;
import org.folio.sidecar.forward.RequestForwarder;
import org.folio.sidecar.forward.Target;
import org.folio.sidecar.routing.ModuleRoutes;
import org.folio.sidecar.token.ServiceTokens;

/**
 * Requests from the module to other modules: finds the target (configured override, else the discovered
 * location; the gateway for unknown routes when enabled), attaches the tenant's shared service token as
 * {@code x-system-token} and forwards. A target that refuses the token gets a fresh one: bodiless idempotent
 * requests are retried once transparently, others get upstream's 503 with Retry-After.
 */
@Singleton
public class EgressHandler {

  private static final Set<HttpMethod> REPLAYABLE = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.DELETE,
    HttpMethod.OPTIONS);
  private static final String GATEWAY = "gateway";

  private final RequestForwarder forwarder;
  private final ServiceTokens tokens;
  private final RouteOverrides overrides;
  private final MeterRegistry registry;
  private final boolean loopbackOnly;
  private final Target gateway;
  private final Map<String, Target> targets = new ConcurrentHashMap<>();
  private final Map<String, Timer> timers = new ConcurrentHashMap<>();

  EgressHandler(RequestForwarder forwarder, ServiceTokens tokens, RouteOverrides overrides, EgressConfig config,
    MeterRegistry registry) {
    this.forwarder = forwarder;
    this.tokens = tokens;
    this.overrides = overrides;
    this.registry = registry;
    this.loopbackOnly = config.loopbackOnly();
    this.gateway = Target.parse(config.forwardUnknownRequestsDestination());
  }

  /** Forwards {@code exchange} to the module owning {@code exchange.entry}, or to the gateway when it is null. */
  public Future<Void> process(Exchange exchange, ModuleRoutes routes) {
    var request = exchange.request;
    if (!EgressGuard.allows(request.remoteAddress(), loopbackOnly)) {
      throw SidecarError.egressNotAllowed();
    }
    if (exchange.tenant == null) {
      throw SidecarError.badRequest("x-okapi-tenant header is required");
    }
    var entry = exchange.entry;
    String module;
    Target target;
    if (entry == null) {
      module = GATEWAY;
      target = gateway;
    } else {
      module = ModuleRoutes.moduleName(entry.moduleId());
      var location = overrides.locationFor(module, entry.interfaceId())
        .orElseGet(() -> routes.locationByModuleId().get(entry.moduleId()));
      if (location == null) {
        throw SidecarError.locationNotFound(entry.moduleId());
      }
      target = targets.computeIfAbsent(location, Target::parse);
    }
    var tenant = exchange.tenant;
    long started = System.nanoTime();
    exchange.moduleStartNanos = started;
    boolean replayable = isReplayable(request);
    return tokens.token(tenant)
      .compose(token -> forwarder.send(request, target, headers(exchange, token, routes)))
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
        return tokens.token(tenant).compose(token -> forwarder.send(request, target, headers(exchange, token, routes)));
      })
      .compose(answer -> {
        exchange.moduleAnsweredNanos = System.nanoTime();
        return RequestForwarder.relay(request, answer);
      })
      .onComplete(result -> timer(module, result.succeeded() ? "ok" : "error")
        .record(System.nanoTime() - started, TimeUnit.NANOSECONDS));
  }

  private static MultiMap headers(Exchange exchange, String serviceToken, ModuleRoutes routes) {
    var headers = exchange.forwardHeaders();
    headers.set(OkapiHeaders.SYSTEM_TOKEN, serviceToken);
    if (exchange.entry != null && !exchange.entry.permissionsDesired().isEmpty()) {
      headers.set(OkapiHeaders.PERMISSIONS,
        new JsonArray(routes.modulePermissionsFor(exchange.entry.permissionsDesired())).encode());
    }
    return headers;
  }

  private Timer timer(String module, String outcome) {
    return timers.computeIfAbsent(module + '#' + outcome, key -> Timer.builder("sidecar.egress.requests")
      .description("egress calls per target module").tag("module", module).tag("outcome", outcome)
      .register(registry));
  }

  static boolean isReplayable(HttpServerRequest request) {
    return REPLAYABLE.contains(request.method()) && !SidecarRouter.hasBody(request);
  }
}
