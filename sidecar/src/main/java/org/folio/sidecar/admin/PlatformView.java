package org.folio.sidecar.admin;

import io.vertx.core.Future;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Singleton;
import java.util.TreeMap;
import java.util.TreeSet;
import org.folio.sidecar.routing.RoutingEntry;
import org.folio.sidecar.routing.RoutingTable;
import org.folio.sidecar.routing.RoutingTableProvider;
import org.folio.sidecar.tenant.TenantEntitlements;

/** What the sidecar loaded from the platform, as it routes by it: its routes and the tenants entitled to it. */
@Singleton
public class PlatformView {

  private final RoutingTableProvider routes;
  private final TenantEntitlements entitlements;

  PlatformView(RoutingTableProvider routes, TenantEntitlements entitlements) {
    this.routes = routes;
    this.entitlements = entitlements;
  }

  AdminAnswer routes(HttpServerRequest request) {
    var current = routes.routes();
    var body = new JsonObject().put("loaded", routes.loaded())
      .put("ingress", entries(current.ingress()))
      .put("egress", entries(current.egress()))
      .put("locations", new JsonObject(new TreeMap<String, Object>(current.locationByModuleId())))
      .put("systemUserRequired", current.systemUserRequired());
    return new AdminAnswer(body, "ingress=" + current.ingress().entries().size() + " egress="
      + current.egress().entries().size());
  }

  Future<AdminAnswer> tenants(HttpServerRequest request) {
    if (!entitlements.loaded()) {
      return Future.succeededFuture(AdminAnswer.of(new JsonObject().put("loaded", false)
        .put("tenants", new JsonArray())));
    }
    return entitlements.entitledTenants().map(tenants -> new AdminAnswer(new JsonObject().put("loaded", true)
      .put("tenants", new JsonArray(java.util.List.copyOf(new TreeSet<>(tenants)))), "tenants=" + tenants.size()));
  }

  private static JsonArray entries(RoutingTable table) {
    var list = new JsonArray();
    for (RoutingEntry entry : table.entries()) {
      list.add(new JsonObject().put("module", entry.moduleId()).put("interface", entry.interfaceId())
        .put("type", entry.interfaceType()).put("path", entry.staticPath())
        .put("methods", new JsonArray(java.util.List.copyOf(new TreeSet<>(entry.methods()))))
        .put("permissionsRequired", new JsonArray(entry.permissionsRequired())));
    }
    return list;
  }
}
