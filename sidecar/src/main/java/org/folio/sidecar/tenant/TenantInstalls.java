package org.folio.sidecar.tenant;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import jakarta.inject.Singleton;
import org.folio.sidecar.config.EgressConfig;

/**
 * Tenants whose install this module is running: mgr-tenant-entitlements calls {@code /_/tenant} before it
 * entitles the tenant, and the module calls other modules during the install and after answering it (reference
 * data). Egress for a tenant the module is not entitled to is accepted only within
 * SIDECAR_TENANT_INSTALL_EGRESS_WINDOW of such a call.
 */
@Singleton
public class TenantInstalls {

  // more tenants installing at once than any platform has; each entry is a name and a time
  private static final long MAX_TENANTS = 10_000;

  private final Cache<String, Boolean> installing;

  TenantInstalls(EgressConfig config, Ticker ticker) {
    this.installing = Caffeine.newBuilder().maximumSize(MAX_TENANTS).ticker(ticker)
      .expireAfterWrite(config.tenantInstallEgressWindow()).build();
  }

  /** The module's tenant install was called for {@code tenant}. */
  public void started(String tenant) {
    installing.put(tenant, Boolean.TRUE);
  }

  public boolean inFlight(String tenant) {
    return installing.getIfPresent(tenant) != null;
  }
}
