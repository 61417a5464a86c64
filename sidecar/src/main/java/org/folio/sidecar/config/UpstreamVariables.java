package org.folio.sidecar.config;

import io.quarkus.runtime.Startup;
import jakarta.annotation.PostConstruct;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * Upstream v4.0.3's variables that have no meaning here: when an operator carries one over, one WARN at start-up
 * names each with the reason, so nothing is silently ignored. docs/configuration.md lists every upstream variable.
 */
@Startup
@Singleton
public class UpstreamVariables {

  private static final Logger LOGGER = Logger.getLogger(UpstreamVariables.class);

  private static final Map<String, String> IGNORED = new LinkedHashMap<>();
  private static final Map<String, String> IGNORED_FAMILIES = new LinkedHashMap<>();

  static {
    IGNORED.put("KC_FORCED_JWKS_REFRESH_INTERVAL",
      "a token naming an unknown key refetches its realm's keys at most every KC_JWKS_MIN_REFETCH_INTERVAL");
    IGNORED.put("KC_INTROSPECTION_TOKEN_CACHE_MAX_SIZE",
      "introspection results are cached by KC_IMPERSONATION_CACHE_MAX_SIZE and KC_IMPERSONATION_CACHE_HEAP_SHARE");
    IGNORED.put("KC_INTROSPECTION_INACTIVE_TOKEN_TTL_IN_SEC",
      "an inactive session is not cached; an active one for KC_IMPERSONATION_SESSION_CHECK_TTL");
    IGNORED.put("KC_INTROSPECTION_CACHE_TTL_OFFSET",
      "introspection results are kept KC_IMPERSONATION_SESSION_CHECK_TTL, not until the token's exp");
    IGNORED.put("MOD_USERS_KEYCLOAK_CACHE_INITIAL_CAPACITY", "caches here start empty and grow");
    IGNORED.put("MOD_USERS_KEYCLOAK_CACHE_MAX_CAPACITY",
      "the user cache is bounded by KC_IMPERSONATION_CACHE_MAX_SIZE and KC_IMPERSONATION_CACHE_HEAP_SHARE");
    IGNORED.put("TOKEN_CACHE_INITIAL_CAPACITY", "caches here start empty and grow");
    IGNORED.put("TOKEN_CACHE_REFRESH_PRIOR_EXPIRATION",
      "tokens are renewed in the background after SIDECAR_TOKEN_REFRESH_FRACTION of their lifetime");
    IGNORED.put("TOKEN_CACHE_RETRIEVAL_TIMEOUT",
      "token requests never block a thread; one Keycloak call is limited by KC_REQUEST_TIMEOUT");
    IGNORED.put("TENANT_SERVICE_RESET_TASK_CRON_DEFINITION",
      "an unknown tenant reloads the entitlements at most every SIDECAR_UNKNOWN_TENANT_RELOAD_INTERVAL");
    IGNORED.put("QUARKUS_THREAD_POOL_MAX_THREADS",
      "requests are served on the event loop; the worker pool it sizes serves no request");
    IGNORED.put("SC_CLIENT_TLS_ENABLED", "TLS is used where the module's or target's URL is https");
    IGNORED.put("KC_CLIENT_TLS_ENABLED", "TLS is used where KC_URL is https");
    IGNORED.put("GW_CLIENT_TLS_ENABLED", "TLS is used where SIDECAR_FORWARD_UNKNOWN_REQUESTS_DESTINATION is https");
    for (var client : new String[]{"SC", "KC", "GW"}) {
      IGNORED.put(client + "_CLIENT_TLS_TRUSTSTORE_PROVIDER", "truststores are read with the JDK's own providers");
    }
    IGNORED_FAMILIES.put("WEB_CLIENT_",
      "the HTTP clients' pools are KC_MAX_POOL_SIZE and SIDECAR_PLATFORM_MAX_POOL_SIZE");
    IGNORED_FAMILIES.put("CREDENTIALS_", "secrets are cached by SIDECAR_SECRET_CACHE_TTL");
    for (var tracing : new String[]{"ROUTING_TRACING_", "FILTERS_TRACING_"}) {
      IGNORED_FAMILIES.put(tracing, "every request has an access line with its reason instead");
    }
    IGNORED_FAMILIES.put("ROUTING_LOGGER_", "every request has an access line (SIDECAR_ACCESS_LOG_ENABLED)");
    IGNORED_FAMILIES.put("ROUTING_RESPONSE_TIME_", "x-response-time is always sent");
    IGNORED_FAMILIES.put("ROUTING_DYNAMIC_DISCOVERY_CACHE_", "discovered locations are refreshed by events and "
      + "SIDECAR_DISCOVERY_REFRESH_INTERVAL");
  }

  /** Upstream's legacy-cache variables mean nothing to the optimized cache. */
  private static final Map<String, String> LEGACY_ONLY = Map.of(
    "KC_AUTHORIZATION_CACHE_MAX_SIZE",
    "the decision cache is sized by SIDECAR_AUTHZ_CACHE_MAX_SIZE and SIDECAR_AUTHZ_CACHE_HEAP_SHARE (it is read in "
      + "SIDECAR_AUTHZ_CACHE_MODE=legacy)",
    "KC_AUTHORIZATION_CACHE_TTL_OFFSET",
    "decisions are kept by SIDECAR_AUTHZ_CACHE_ALLOW_TTL, not until the token's exp (it is read in "
      + "SIDECAR_AUTHZ_CACHE_MODE=legacy)");

  private final AuthzCacheConfig authz;

  UpstreamVariables(AuthzCacheConfig authz) {
    this.authz = authz;
  }

  @PostConstruct
  void warn() {
    warning(System.getenv(), authz.mode()).ifPresent(LOGGER::warn);
  }

  /** The one WARN line for the upstream variables set in {@code environment} that are ignored here, if any. */
  public static Optional<String> warning(Map<String, String> environment, AuthzCacheConfig.Mode mode) {
    var reasons = new ArrayList<String>();
    for (var variable : environment.keySet().stream().sorted().toList()) {
      var reason = reason(variable, mode);
      if (reason != null) {
        reasons.add(variable + ", because " + reason);
      }
    }
    return reasons.isEmpty()
      ? Optional.empty()
      : Optional.of("Upstream variables without meaning here; ignored: " + String.join("; ", reasons));
  }

  private static @Nullable String reason(String variable, AuthzCacheConfig.Mode mode) {
    var reason = IGNORED.get(variable);
    if (reason != null) {
      return reason;
    }
    if (mode == AuthzCacheConfig.Mode.OPTIMIZED && LEGACY_ONLY.containsKey(variable)) {
      return LEGACY_ONLY.get(variable);
    }
    if (variable.equals("WEB_CLIENT_TLS_VERIFY_HOSTNAME")) {
      return null;
    }
    for (var family : IGNORED_FAMILIES.entrySet()) {
      if (variable.startsWith(family.getKey())) {
        return family.getValue();
      }
    }
    return null;
  }
}
