package org.folio.sidecar.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * Calls the sidecar itself makes to FOLIO's managers (mgr-applications, mgr-tenant-entitlements, mgr-tenants) and
 * to mod-users-keycloak. Their truststore is {@code tls.platform} (MGR_CLIENT_TLS_TRUSTSTORE_*).
 */
@ConfigMapping(prefix = "sidecar.platform")
public interface PlatformConfig {

  /** SIDECAR_MANAGER_TIMEOUT: limit for one call, at start-up, in a periodic reload or on a request's path. */
  @WithDefault("10s")
  Duration timeout();

  /** SIDECAR_PLATFORM_MAX_POOL_SIZE: connections the sidecar keeps to each of these services. */
  @WithDefault("50")
  int maxPoolSize();

  /**
   * SIDECAR_STARTUP_WAIT: how long start-up waits for the first load of routes and entitlements before it opens
   * the port anyway (readiness stays DOWN and requests get 503 until they load).
   */
  @WithDefault("10s")
  Duration startupWait();
}
