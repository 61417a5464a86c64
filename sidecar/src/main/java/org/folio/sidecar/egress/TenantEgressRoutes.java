package org.folio.sidecar.egress;

import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.folio.sidecar.config.ConfigValidator;
import org.folio.sidecar.config.EgressConfig;
import org.folio.sidecar.config.ModuleConfig;
import org.folio.sidecar.config.TenantConfig;
import org.folio.sidecar.platform.PlatformClient;
import org.folio.sidecar.routing.ModuleDescriptorParser;
import org.folio.sidecar.routing.ModuleRoutes;
import org.folio.sidecar.routing.RoutingTable;
import org.folio.sidecar.tenant.TenantEntitlements;
import org.folio.sidecar.token.ServiceTokens;
import org.jboss.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * SIDECAR_TENANT_SCOPED_ROUTING_ENABLED (upstream master, EUREKA-899): each entitled tenant's egress routes, for
 * platforms where tenants are entitled to different versions of one application. A tenant's table comes from
 * the applications it is entitled to ({@code GET /entitlements?tenant=}) and mgr-applications' bootstrap of the
 * module scoped to them ({@code POST /modules/<id>/bootstrap {"applicationIds":[...]}}). Tables follow the set
 * of entitled tenants (built for a new tenant, dropped for a revoked one) and are rebuilt on an UPGRADE event
 * and on a discovery event of a module a table routes to; a failed build keeps the table the tenant had.
 */
@Singleton
public class TenantEgressRoutes {

  private static final Logger LOGGER = Logger.getLogger(TenantEgressRoutes.class);

  /** A tenant's egress table, and the last merge of it with the module's own routes (rebuilt when those change). */
  private record Table(ModuleRoutes egress, AtomicReference<@Nullable Merged> merged) {

    Table(ModuleRoutes egress) {
      this(egress, new AtomicReference<>());
    }
  }

  private record Merged(ModuleRoutes base, ModuleRoutes routes) {
  }

  private final boolean enabled;
  private final PlatformClient platform;
  private final TenantEntitlements entitlements;
  private final String bootstrapUrl;
  private final String entitlementsUrl;
  private final int batchSize;
  private final Map<String, Table> tables = new ConcurrentHashMap<>();
  private final Table unresolved = new Table(ModuleRoutes.NONE);
  private volatile Set<String> entitled = Set.of();

  TenantEgressRoutes(EgressConfig egress, TenantConfig tenants, ModuleConfig module, PlatformClient platform,
    TenantEntitlements entitlements) {
    this.enabled = egress.tenantScopedRouting();
    this.platform = platform;
    this.entitlements = entitlements;
    this.bootstrapUrl = ConfigValidator.withoutTrailingSlash(egress.applicationsUrl()) + "/modules/"
      + module.moduleId() + "/bootstrap";
    this.entitlementsUrl = ConfigValidator.withoutTrailingSlash(tenants.entitlementsUrl()) + "/entitlements";
    this.batchSize = tenants.entitlementsBatchSize();
  }

  void start(@Observes StartupEvent event) {
    if (enabled) {
      entitlements.onChange(this::reconcile);
    }
  }

  public boolean enabled() {
    return enabled;
  }

  /**
   * The routes an egress request of {@code tenant} is resolved with: the module's own ({@code base}) with the
   * tenant's egress table, or with none while the tenant is missing, unknown or its table not built yet, so
   * that the request goes to the gateway (or is a 404 with SIDECAR_FORWARD_UNKNOWN_REQUESTS=false).
   */
  @SuppressWarnings("ReferenceEquality") // identity: a reload replaces the module's routes with a new object
  public ModuleRoutes routesFor(@Nullable String tenant, ModuleRoutes base) {
    var table = tenant == null ? null : tables.get(tenant);
    var chosen = table == null ? unresolved : table;
    var merged = chosen.merged().get();
    if (merged != null && merged.base() == base) {
      return merged.routes();
    }
    var egress = chosen.egress();
    var routes = new ModuleRoutes(base.ingress(), egress.egress(), egress.locationByModuleId(),
      base.modulePermissions(), base.systemUserRequired());
    chosen.merged().set(new Merged(base, routes));
    return routes;
  }

  /** The entitled tenants changed (first load, an event, a reload): build new tenants' tables, drop the gone. */
  synchronized void reconcile(Set<String> tenants) {
    var added = new LinkedHashSet<>(tenants);
    added.removeAll(entitled);
    entitled = Set.copyOf(tenants);
    for (var tenant : Set.copyOf(tables.keySet())) {
      if (!tenants.contains(tenant)) {
        tables.remove(tenant);
        LOGGER.infof("Egress routes of tenant %s dropped: it is no longer entitled", tenant);
      }
    }
    added.forEach(this::build);
  }

  /** An UPGRADE of this module for {@code tenant}: its applications' versions changed, so its table is rebuilt. */
  public void rebuild(String tenant) {
    if (enabled && entitled.contains(tenant)) {
      build(tenant);
    }
  }

  /**
   * A discovery event: the tables that route to {@code moduleId} are rebuilt, so they hold its new location.
   * False when no table routes to it.
   */
  public boolean rediscovered(String moduleId) {
    if (!enabled) {
      return false;
    }
    var rebuilt = false;
    for (var tenant : Set.copyOf(tables.keySet())) {
      var table = tables.get(tenant);
      if (table != null && (table.egress().locationByModuleId().containsKey(moduleId)
        || routesTo(table.egress().egress(), moduleId))) {
        build(tenant);
        rebuilt = true;
      }
    }
    return rebuilt;
  }

  private static boolean routesTo(RoutingTable table, String moduleId) {
    return table.entries().stream().anyMatch(entry -> entry.moduleId().equals(moduleId));
  }

  private Future<ModuleRoutes> build(String tenant) {
    var query = MultiMap.caseInsensitiveMultiMap()
      .add("tenant", tenant).add("limit", String.valueOf(batchSize)).add("includeModules", "false");
    return platform.get("mgr-tenant-entitlements", ServiceTokens.MASTER, entitlementsUrl, query)
      .compose(body -> {
        var applicationIds = new LinkedHashSet<String>();
        for (var entitlement : body.getJsonArray("entitlements", new JsonArray())) {
          if (entitlement instanceof JsonObject object && object.getValue("applicationId") instanceof String id) {
            applicationIds.add(id);
          }
        }
        // no application, no egress: nothing to ask mgr-applications
        return applicationIds.isEmpty()
          ? Future.succeededFuture(ModuleRoutes.NONE)
          : platform.post("mgr-applications", bootstrapUrl,
            new JsonObject().put("applicationIds", new JsonArray(applicationIds.stream().toList())))
            .map(ModuleDescriptorParser::parseRoutes);
      })
      .onSuccess(routes -> {
        // a tenant revoked while its table was being built stays without one
        if (entitled.contains(tenant)) {
          tables.put(tenant, new Table(routes));
          LOGGER.infof("Egress routes of tenant %s built: %d endpoints of %d modules", tenant,
            routes.egress().entries().size(), routes.locationByModuleId().size());
        }
      })
      .onFailure(error -> LOGGER.warnf("Egress routes of tenant %s not built, %s: %s", tenant,
        tables.containsKey(tenant) ? "keeping the previous ones" : "its egress goes to the gateway",
        error.getMessage()));
  }
}
