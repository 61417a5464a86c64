package org.folio.sidecar.health;

import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Singleton;
import org.folio.sidecar.routing.RoutingTableProvider;
import org.folio.sidecar.tenant.TenantEntitlements;

/**
 * Upstream's health paths: {@code /admin/health} and {@code /admin/health/ready} are UP while the module and
 * Keycloak answer and routes and entitlements are loaded; {@code /admin/health/live} is UP while the sidecar itself serves.
 */
@Singleton
public class HealthRoutes {

  private final DependencyProbe probe;
  private final RoutingTableProvider routes;
  private final TenantEntitlements entitlements;

  HealthRoutes(DependencyProbe probe, RoutingTableProvider routes, TenantEntitlements entitlements) {
    this.probe = probe;
    this.routes = routes;
    this.entitlements = entitlements;
  }

  public void live(RoutingContext context) {
    respond(context, true, null);
  }

  public void ready(RoutingContext context) {
    boolean up = probe.moduleUp() && probe.keycloakUp() && routes.loaded() && entitlements.loaded();
    var checks = up ? null : new JsonObject()
      .put("module", probe.moduleUp() ? "UP" : "DOWN")
      .put("keycloak", probe.keycloakUp() ? "UP" : "DOWN")
      .put("routes", routes.loaded() ? "UP" : "DOWN")
      .put("entitlements", entitlements.loaded() ? "UP" : "DOWN");
    respond(context, up, checks);
  }

  private static void respond(RoutingContext context, boolean up, JsonObject checks) {
    var body = new JsonObject().put("status", up ? "UP" : "DOWN");
    if (checks != null) {
      body.put("checks", checks);
    }
    context.response()
      .setStatusCode(up ? 200 : 503)
      .putHeader("content-type", "application/json")
      .end(body.encode());
  }
}
