package org.folio.sidecar.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * The admin API on the management port (docs/admin-api.md). Property {@code sidecar.admin.x-y} is
 * {@code SIDECAR_ADMIN_X_Y}.
 */
@ConfigMapping(prefix = "sidecar.admin")
public interface AdminConfig {

  /**
   * SIDECAR_ADMIN_SECRET_KEY: the secret-store key of the admin credential callers send as
   * {@code Authorization: Bearer}; by default {@code <SECURE_STORE_ENV>_sidecar_admin} (application.properties).
   * With no such secret in the store the admin API refuses every call.
   */
  String secretKey();

  /** SIDECAR_ADMIN_LOOKUP_LIMIT: the most cache entries one look-up lists (it always says how many match). */
  @WithDefault("100")
  int lookupLimit();
}
