package org.folio.sidecar.events;

import jakarta.inject.Singleton;
import org.folio.sidecar.authz.AuthorizationCache;
import org.folio.sidecar.authz.DesiredPermissions;
import org.folio.sidecar.config.ModuleConfig;
import org.folio.sidecar.crosstenant.Impersonation;
import org.folio.sidecar.egress.DynamicRoutes;
import org.folio.sidecar.egress.TenantEgressRoutes;
import org.folio.sidecar.routing.RoutingTableProvider;
import org.folio.sidecar.tenant.TenantEntitlements;
import org.folio.sidecar.token.ServiceTokens;
import org.jboss.logging.Logger;

/**
 * What each platform event changes: discovery → routes reloaded, entitlement → tenant set changed (a revoke also
 * drops the tenant's cached decisions and token; an upgrade rebuilds the tenant's egress table with tenant-scoped
 * routing), logout → the session ended (a logout-all: the user's sessions until then, and the user's decisions
 * dropped).
 */
@Singleton
class EventEffects implements EventHandler {

  private static final Logger LOGGER = Logger.getLogger(EventEffects.class);

  private final ModuleConfig module;
  private final RoutingTableProvider routes;
  private final TenantEntitlements entitlements;
  private final AuthorizationCache decisions;
  private final ServiceTokens tokens;
  private final DesiredPermissions desiredPermissions;
  private final Impersonation impersonation;
  private final DynamicRoutes dynamicRoutes;
  private final TenantEgressRoutes tenantRoutes;

  EventEffects(ModuleConfig module, RoutingTableProvider routes, TenantEntitlements entitlements,
    AuthorizationCache decisions, ServiceTokens tokens, DesiredPermissions desiredPermissions,
    Impersonation impersonation, DynamicRoutes dynamicRoutes, TenantEgressRoutes tenantRoutes) {
    this.module = module;
    this.routes = routes;
    this.entitlements = entitlements;
    this.decisions = decisions;
    this.tokens = tokens;
    this.desiredPermissions = desiredPermissions;
    this.impersonation = impersonation;
    this.dynamicRoutes = dynamicRoutes;
    this.tenantRoutes = tenantRoutes;
  }

  @Override
  public String apply(PlatformEvent event) {
    switch (event) {
      case PlatformEvent.Discovery discovery -> {
        boolean hinted = dynamicRoutes.refresh(discovery.moduleId());
        boolean tenantScoped = tenantRoutes.rediscovered(discovery.moduleId());
        if (discovery.moduleId().equals(module.moduleId())
          || routes.routes().locationByModuleId().containsKey(discovery.moduleId())) {
          routes.reload()
            .onFailure(error -> LOGGER.warnf("Reload after discovery event failed: %s", error.getMessage()));
          return "applied";
        } else if (hinted || tenantScoped) {
          return "applied";
        } else {
          return "ignored";
        }
      }
      case PlatformEvent.Entitlement entitlement -> {
        // any module's entitlement changes what a module hint may reach for that tenant
        dynamicRoutes.forgetTenant(entitlement.tenantName());
        if (!entitlement.moduleId().equals(module.moduleId())) {
          return "ignored";
        }
        if (entitlement.revokes()) {
          entitlements.revoke(entitlement.tenantName());
          decisions.invalidateTenant(entitlement.tenantName());
          desiredPermissions.invalidateTenant(entitlement.tenantName());
          tokens.evict(entitlement.tenantName());
        } else {
          entitlements.entitle(entitlement.tenantName());
          if (entitlement.upgrades()) {
            tenantRoutes.rebuild(entitlement.tenantName());
          }
        }
        return "applied";
      }
      case PlatformEvent.Logout logout -> {
        var session = logout.sessionId();
        // a session logout that names no session ends them all: forgetting too much costs a Keycloak call
        if (logout.allSessions() || session == null) {
          decisions.userLoggedOut(logout.tenant(), logout.userId(), logout.atEpochMillis());
          impersonation.invalidateUser(logout.tenant(), logout.userId());
        } else {
          decisions.sessionEnded(logout.tenant(), session);
          impersonation.invalidateSession(logout.tenant(), logout.userId(), session);
        }
        if (logout.userId() != null) {
          desiredPermissions.invalidateUser(logout.tenant(), logout.userId());
        }
        return "applied";
      }
    }
  }
}
