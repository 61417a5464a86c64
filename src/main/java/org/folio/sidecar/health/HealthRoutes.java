package org.folio.sidecar.health;

import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Singleton;

/**
 * Upstream's health paths: {@code /admin/health} and {@code /admin/health/ready} are UP while the module and
 * Keycloak answer; {@code /admin/health/live} is UP while the sidecar itself serves.
 */
@Singleton
public class HealthRoutes {

  private final DependencyProbe probe;

  HealthRoutes(DependencyProbe probe) {
    this.probe = probe;
  }

  public void live(RoutingContext context) {
    respond(context, true, null);
  }

  public void ready(RoutingContext context) {
    boolean up = probe.moduleUp() && probe.keycloakUp();
    var checks = up ? null : new JsonObject()
      .put("module", probe.moduleUp() ? "UP" : "DOWN")
      .put("keycloak", probe.keycloakUp() ? "UP" : "DOWN");
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
