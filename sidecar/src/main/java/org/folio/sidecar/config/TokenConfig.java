package org.folio.sidecar.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Service tokens the sidecar obtains for egress and for mgr-* calls. */
@ConfigMapping(prefix = "token")
public interface TokenConfig {

  /** KC_SERVICE_CLIENT_ID: the per-tenant client whose client-credentials token goes out as {@code x-system-token}. */
  @WithDefault("sidecar-module-access-client")
  String serviceClientId();

  /** KC_ADMIN_CLIENT_ID: the master-realm client used for mgr-applications. */
  @WithDefault("folio-backend-admin-client")
  String adminClientId();

  /** SECURE_STORE_ENV (then ENV): the prefix of secret keys {@code <env>_<tenant>_<client>}. */
  @WithDefault("folio")
  String secureStoreEnv();

  /** TOKEN_CACHE_MAX_CAPACITY: tenants whose token is kept (upstream: 50, which thrashed at 50+ tenants). */
  @WithDefault("1000")
  long maxCapacity();

  /** SIDECAR_TOKEN_REFRESH_FRACTION: a token is renewed in the background once this share of its lifetime has passed. */
  @WithDefault("0.7")
  double refreshFraction();

  /**
   * SIDECAR_REFUSED_TOKEN_MIN_AGE: an egress target's 401 replaces the tenant's service token only if the token
   * is at least this old; a younger one was not refused for its age, and the 401 goes to the module unchanged.
   */
  @WithDefault("30s")
  Duration refusedTokenMinAge();
}
