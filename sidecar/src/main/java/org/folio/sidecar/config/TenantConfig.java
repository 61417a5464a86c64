package org.folio.sidecar.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Which tenants may use the module: entitlements from mgr-tenant-entitlements, names from mgr-tenants. */
@ConfigMapping(prefix = "tenant")
public interface TenantConfig {

  /** SIDECAR_TENANT_ENTITLEMENT_CHECK: reject tenants not entitled to the module (as upstream); off for local use. */
  @WithDefault("true")
  boolean entitlementCheck();

  /** TE_CLIENT_URL: mgr-tenant-entitlements. */
  @WithDefault("http://mgr-tenant-entitlements:8081")
  String entitlementsUrl();

  /** TM_CLIENT_URL: mgr-tenants. */
  @WithDefault("http://mgr-tenants:8081")
  String tenantsUrl();

  /** TE_CLIENT_BATCH_SIZE: entitlements per page (every page is read, unlike upstream). */
  @WithDefault("500")
  int entitlementsBatchSize();

  /** TM_BATCH_SIZE: tenant ids per mgr-tenants query. */
  @WithDefault("50")
  int tenantsBatchSize();

  /** SIDECAR_ENTITLEMENT_REFRESH_INTERVAL: entitlements re-read this often (the fallback when Kafka is off). */
  @WithDefault("5m")
  Duration refreshInterval();

  /** SIDECAR_UNKNOWN_TENANT_RELOAD_INTERVAL: a request for an unknown tenant reloads entitlements at most this often. */
  @WithDefault("30s")
  Duration unknownTenantReloadInterval();

  /**
   * ROUTING_MODULE_ENTITLEMENT_ENABLED: answer {@code GET /entitlements/modules/<own module id>} with the
   * entitled tenants' names, unauthenticated, as upstream v4 (modules filter Kafka messages by it).
   */
  @WithDefault("true")
  boolean moduleEntitlementEndpoint();
}
