package org.folio.sidecar.tenant;

import io.vertx.core.json.JsonArray;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import org.folio.sidecar.config.ModuleConfig;
import org.folio.sidecar.error.ErrorResponder;
import org.folio.sidecar.error.SidecarError;

/**
 * Upstream v4's {@code GET /entitlements/modules/<own module id>}: the names of the tenants entitled to the
 * module, as a JSON array, without authentication (the module asks its own sidecar, to filter Kafka messages by
 * tenant). Another module id is 403. Before the first entitlement load the answer waits for it.
 */
@Singleton
public class ModuleEntitlementsRoute {

  public static final String PATH_PREFIX = "/entitlements/modules/";

  private final TenantEntitlements entitlements;
  private final ErrorResponder errors;
  private final String moduleId;

  ModuleEntitlementsRoute(TenantEntitlements entitlements, ErrorResponder errors, ModuleConfig module) {
    this.entitlements = entitlements;
    this.errors = errors;
    this.moduleId = module.moduleId();
  }

  public void handle(RoutingContext context) {
    var response = context.response();
    if (!moduleId.equals(context.request().path().substring(PATH_PREFIX.length()))) {
      errors.respond(response, SidecarError.moduleIdMismatch());
      return;
    }
    entitlements.entitledTenants().onSuccess(tenants -> {
      var names = new ArrayList<>(tenants);
      names.sort(null);
      response.putHeader("content-type", "application/json").end(new JsonArray(names).encode());
    });
  }
}
