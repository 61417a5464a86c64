package org.folio.sidecar.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** mod-users-keycloak, asked for users' desired permissions. Upstream names (the fix branch's for the cache). */
@ConfigMapping(prefix = "users")
public interface UsersConfig {

  /** MOD_USERS_KEYCLOAK_URL. */
  @WithDefault("http://mod-users-keycloak:8081")
  String keycloakUrl();

  /** MOD_USERS_KEYCLOAK_PERMISSIONS_CACHE_EXPIRATION_SECONDS: how long a user's desired permissions are reused. */
  @WithDefault("10s")
  Duration permissionsCacheTtl();

  /** MOD_USERS_KEYCLOAK_PERMISSIONS_CACHE_MAX_CAPACITY. */
  @WithDefault("5000")
  long permissionsCacheMaxSize();

  /** SIDECAR_DESIRED_PERMISSIONS_HEAP_SHARE: the share of the heap cached desired permissions may fill. */
  @WithDefault("0.05")
  double permissionsCacheHeapShare();
}
