package org.folio.sidecar.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

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

  /**
   * SIDECAR_ADMIN_FAILURES_BEFORE_BACKOFF: wrong admin credentials one peer address may send before it must wait
   * ({@code admin/AdminThrottle}).
   */
  @WithDefault("5")
  int failuresBeforeBackoff();

  /**
   * SIDECAR_ADMIN_FAILURE_BACKOFF: the first wait of an address past its budget; each further wrong credential
   * doubles it. A call while it waits is answered 429 without its credential being checked.
   */
  @WithDefault("1s")
  Duration failureBackoff();

  /**
   * SIDECAR_ADMIN_FAILURE_BACKOFF_MAX: the longest wait; an address's failures are forgotten once it has been quiet
   * this long after its wait. Not shorter than SIDECAR_ADMIN_FAILURE_BACKOFF.
   */
  @WithDefault("60s")
  Duration failureBackoffMax();

  /** SIDECAR_ADMIN_FAILURE_ADDRESSES: peer addresses whose failures are remembered at most. */
  @WithDefault("10000")
  int failureAddresses();

  /**
   * SIDECAR_ADMIN_AUDIT_REFUSED_LINES: audit lines of calls refused for their credential written per
   * SIDECAR_ADMIN_AUDIT_INTERVAL; the rest are counted ({@code sidecar_admin_audit_suppressed_total}) and said in
   * one line at the interval's end. Granted calls are always written.
   */
  @WithDefault("20")
  int auditRefusedLines();

  /** SIDECAR_ADMIN_AUDIT_INTERVAL: the interval of SIDECAR_ADMIN_AUDIT_REFUSED_LINES. */
  @WithDefault("10s")
  Duration auditInterval();
}
