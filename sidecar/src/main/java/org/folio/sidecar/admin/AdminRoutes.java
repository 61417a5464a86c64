package org.folio.sidecar.admin;

import io.quarkus.vertx.http.ManagementInterface;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.folio.sidecar.error.ErrorResponder;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.health.OperatorDrain;
import org.jspecify.annotations.Nullable;

/**
 * The admin API (docs/admin-api.md), on Quarkus' management interface only (QUARKUS_MANAGEMENT_PORT, 9000, beside
 * {@code /q/metrics}), never on the module's port. Every call is authenticated first ({@link AdminAuth}: nothing,
 * not even which paths exist, is told to a caller without the credential), then dispatched by path and method;
 * reads are GET, changes POST only, and a GET of a change is 405, as Envoy's admin interface refuses it. Every call
 * is audited and counted ({@link AdminAudit}).
 */
@Singleton
public class AdminRoutes {

  static final String BASE = "/admin";

  /** One endpoint: its name (the audit line's and the metric's), method, path and what it does. */
  record Endpoint(String name, HttpMethod method, String path, String about,
    Function<HttpServerRequest, Future<AdminAnswer>> action) {
  }

  private final AdminAuth auth;
  private final AdminAudit audit;
  private final ErrorResponder errors;
  private final List<Endpoint> endpoints;
  private final Map<String, List<Endpoint>> byPath;

  AdminRoutes(AdminAuth auth, AdminAudit audit, ErrorResponder errors, CacheAdmin cache, ConfigDump config,
    LogLevels logging, BuildInfo build, PlatformView platform, OperatorDrain drain) {
    this.auth = auth;
    this.audit = audit;
    this.errors = errors;
    this.endpoints = List.of(
      read("index", "", "this list", this::index),
      read("server_info", "/server_info", "version, build, module, uptime, state", build::describe),
      read("cache_stats", "/cache", "decision-cache counts, lifetimes, oldest grant, revocation bound", cache::stats),
      read("cache_lookup", "/cache/entries", "?tenant=[&user=|&session=][&limit=]: entries, ages, next re-check",
        cache::lookup),
      change("cache_flush", "/cache/flush", "?tenant=[&user=|&session=] or ?all=true: drop cached decisions",
        cache::flush),
      read("config_dump", "/config_dump", "effective configuration, its sources, secrets redacted", config::dump),
      read("routes", "/routes", "loaded ingress and egress routes and module locations", platform::routes),
      new Endpoint("tenants", HttpMethod.GET, BASE + "/tenants", "entitled tenants", platform::tenants),
      read("logging", "/logging", "log levels set", logging::levels),
      change("logging_change", "/logging", "?category=&level=: change a log level until restart", logging::change),
      change("healthcheck_fail", "/healthcheck/fail", "readiness DOWN without stopping (drain)",
        request -> AdminAnswer.of(new JsonObject().put("readiness", "DOWN").put("wasFailed", drain.fail()))),
      change("healthcheck_ok", "/healthcheck/ok", "readiness back to its checks",
        request -> AdminAnswer.of(new JsonObject().put("readiness", "checks").put("wasFailed", drain.restore()))));
    this.byPath = endpoints.stream().collect(Collectors.groupingBy(Endpoint::path, LinkedHashMap::new,
      Collectors.toList()));
  }

  private static Endpoint read(String name, String path, String about, Function<HttpServerRequest, AdminAnswer> a) {
    return new Endpoint(name, HttpMethod.GET, BASE + path, about, request -> Future.succeededFuture(a.apply(request)));
  }

  private static Endpoint change(String name, String path, String about, Function<HttpServerRequest, AdminAnswer> a) {
    return new Endpoint(name, HttpMethod.POST, BASE + path, about, request -> Future.succeededFuture(a.apply(request)));
  }

  void register(@Observes ManagementInterface management) {
    var router = management.router();
    router.route(BASE).handler(this::handle);
    router.route(BASE + "/*").handler(this::handle);
  }

  private void handle(RoutingContext context) {
    var request = context.request();
    var path = request.path();
    var candidates = path == null
      ? null
      : byPath.get(path.length() > BASE.length() && path.endsWith("/")
        ? path.substring(0, path.length() - 1)
        : path);
    var endpoint = candidates == null
      ? null
      : candidates.stream()
        .filter(candidate -> candidate.method().equals(request.method())).findFirst().orElse(null);
    String name = endpoint != null ? endpoint.name() : candidates != null ? candidates.get(0).name() : "unknown";
    auth.authenticate(request).onComplete(authenticated -> {
      if (authenticated.failed()) {
        refuse(context, null, name, authenticated.cause());
        return;
      }
      var caller = authenticated.result();
      if (candidates == null) {
        refuse(context, caller, name, SidecarError.routeNotFound(request.method().name(), String.valueOf(path)));
        return;
      }
      if (endpoint == null) {
        context.response().putHeader("allow", candidates.stream().map(c -> c.method().name())
          .collect(Collectors.joining(", ")));
        refuse(context, caller, name, SidecarError.methodNotAllowed(request.method().name(), String.valueOf(path)));
        return;
      }
      Future<AdminAnswer> answer;
      try {
        answer = endpoint.action().apply(request);
      } catch (SidecarError error) {
        answer = Future.failedFuture(error);
      }
      answer.onComplete(done -> {
        if (done.failed()) {
          refuse(context, caller, name, done.cause());
          return;
        }
        audit.record(request, caller, name, 200, "ok", done.result().detail());
        context.response().putHeader("content-type", "application/json")
          .putHeader("cache-control", "no-store").end(done.result().body().encodePrettily());
      });
    });
  }

  private void refuse(RoutingContext context, @Nullable String caller, String endpoint, Throwable cause) {
    var error = cause instanceof SidecarError known ? known : SidecarError.internal(cause.getClass().getSimpleName());
    audit.record(context.request(), caller, endpoint, error.status(), outcome(error.status()),
      error.reason() == null ? null : "reason=\"" + error.reason() + "\"");
    errors.respond(context.response(), error);
  }

  private static String outcome(int status) {
    return switch (status) {
      case 400 -> "bad_request";
      case 401 -> "unauthenticated";
      case 403 -> "forbidden";
      case 404 -> "not_found";
      case 405 -> "method_not_allowed";
      case 429 -> "throttled";
      case 501, 503 -> "unavailable";
      default -> "error";
    };
  }

  private AdminAnswer index(HttpServerRequest request) {
    var list = new JsonArray();
    endpoints.forEach(endpoint -> list.add(new JsonObject().put("method", endpoint.method().name())
      .put("path", endpoint.path()).put("name", endpoint.name()).put("about", endpoint.about())));
    return AdminAnswer.of(new JsonObject().put("endpoints", list));
  }
}
