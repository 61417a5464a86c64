package org.folio.sidecar.health;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Singleton;
import org.folio.sidecar.config.EventsConfig;
import org.folio.sidecar.config.HealthConfig;
import org.folio.sidecar.edge.Drain;
import org.folio.sidecar.events.EventConsumer;
import org.folio.sidecar.routing.RoutingTableProvider;
import org.folio.sidecar.tenant.TenantEntitlements;
import org.jspecify.annotations.Nullable;

/**
 * Upstream's health paths and SmallRye-shaped bodies. {@code /admin/health} and {@code /admin/health/ready}
 * are UP while the module answers its health path with 200 and routes and entitlements are loaded. Keycloak is an
 * informational entry that never changes the status; the Kafka checks (when configured) show their own status but
 * change the overall one only with SIDECAR_READINESS_REQUIRES_KAFKA. {@code /admin/health/live} reports the sidecar
 * process alone. By default (as upstream) the body is {@code {"status":"UP"}}; HEALTH_CHECK_FILTER_* variables show
 * the checks.
 */
@Singleton
public class HealthRoutes {

  static final String MODULE_CHECK = "Module health check";
  static final String KAFKA_CHECK = "Kafka connection health check";
  static final String MESSAGING_CHECK = "SmallRye Reactive Messaging - readiness check";
  // upstream's /admin/health lists SmallRye's liveness and startup checks of the channels too
  static final String MESSAGING_LIVENESS_CHECK = "SmallRye Reactive Messaging - liveness check";
  static final String MESSAGING_STARTUP_CHECK = "SmallRye Reactive Messaging - startup check";
  static final String OPERATOR_DRAIN_CHECK = "Failed by an operator (admin API /admin/healthcheck/fail)";
  static final String KEYCLOAK_CHECK = "Keycloak connection (informational, not part of the status)";

  private final DependencyProbe probe;
  private final RoutingTableProvider routes;
  private final TenantEntitlements entitlements;
  private final EventConsumer events;
  private final HealthConfig config;
  private final EventsConfig eventsConfig;
  private final Drain drain;
  private final OperatorDrain operatorDrain;
  private final Counter becameReady;
  private final Counter becameUnready;
  // what the previous readiness answer said; starts unready, as the pod does
  private volatile boolean wasReady;

  HealthRoutes(DependencyProbe probe, RoutingTableProvider routes, TenantEntitlements entitlements,
    EventConsumer events, HealthConfig config, EventsConfig eventsConfig, Drain drain, OperatorDrain operatorDrain,
    MeterRegistry registry) {
    this.operatorDrain = operatorDrain;
    this.eventsConfig = eventsConfig;
    this.drain = drain;
    this.becameReady = transitions(registry, "ready");
    this.becameUnready = transitions(registry, "unready");
    this.probe = probe;
    this.routes = routes;
    this.entitlements = entitlements;
    this.events = events;
    this.config = config;
  }

  public void live(RoutingContext context) {
    respond(context, true, new JsonArray());
  }

  /** {@code /admin/health}: every check, as SmallRye's root lists readiness, liveness and startup checks. */
  public void all(RoutingContext context) {
    ready(context, true);
  }

  public void ready(RoutingContext context) {
    ready(context, false);
  }

  private void ready(RoutingContext context, boolean withLivenessAndStartup) {
    var checks = new JsonArray();
    boolean up = check(checks, MODULE_CHECK, probe.moduleUp(), config.moduleSimplified()
      ? null
      : new JsonObject().put("host", "GET " + probe.moduleHealthUrl()));
    if (probe.kafkaNodes() != null) {
      boolean kafka = check(checks, KAFKA_CHECK, probe.kafkaUp(), config.kafkaSimplified()
        ? null
        : new JsonObject().put("nodes", probe.kafkaNodes()));
      var channel = events.consuming() ? "[OK]" : "[KO]";
      var channels = new JsonObject().put("discovery", channel).put("entitlement", channel).put("logout", channel);
      if (withLivenessAndStartup) {
        // one consumer state behind all three: running threads are started, alive and ready at once
        kafka &= check(checks, MESSAGING_LIVENESS_CHECK, events.consuming(), channels);
      }
      kafka &= check(checks, MESSAGING_CHECK, events.consuming(), channels);
      if (withLivenessAndStartup) {
        kafka &= check(checks, MESSAGING_STARTUP_CHECK, events.consuming(), channels);
      }
      // the checks show a lost broker; it pulls the pod only if the operator asked for upstream's behaviour
      up &= kafka || !eventsConfig.readinessRequiresKafka();
    }
    up &= check(checks, "Module routes", routes.loaded(), null);
    up &= check(checks, "Tenant entitlements", entitlements.loaded(), null);
    // a stopping sidecar leaves its Service at once, before it stops answering (Drain); upstream's body has no
    // check of its own for that
    up &= !drain.draining();
    if (operatorDrain.failed()) {
      // named, so a readiness body with its checks says why the pod left its Service
      up &= check(checks, OPERATOR_DRAIN_CHECK, false, null);
    }
    checks.add(new JsonObject().put("name", KEYCLOAK_CHECK).put("status", "UP")
      .put("data", new JsonObject().put("reachable", probe.keycloakUp())));
    if (up != wasReady) {
      wasReady = up;
      (up ? becameReady : becameUnready).increment();
    }
    respond(context, up, checks);
  }

  /** Counted as the readiness probe sees them: a pod that keeps leaving its Service shows here. */
  private static Counter transitions(MeterRegistry registry, String to) {
    return Counter.builder("sidecar.readiness.transitions").description("readiness answers that changed the status")
      .tag("to", to).register(registry);
  }

  private static boolean check(JsonArray checks, String name, boolean up, @Nullable JsonObject data) {
    var check = new JsonObject().put("name", name).put("status", up ? "UP" : "DOWN");
    if (data != null) {
      check.put("data", data);
    }
    checks.add(check);
    return up;
  }

  private void respond(RoutingContext context, boolean up, JsonArray checks) {
    var body = new JsonObject().put("status", up ? "UP" : "DOWN");
    if (!config.noChecks()) {
      body.put("checks", checks);
    }
    context.response()
      .setStatusCode(up ? 200 : 503)
      .putHeader("content-type", "application/json")
      .end(body.encode());
  }
}
