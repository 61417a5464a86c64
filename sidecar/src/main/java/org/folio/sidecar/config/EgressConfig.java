package org.folio.sidecar.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Calls from the module to other modules. Upstream names where upstream has them; the rest are new. */
@ConfigMapping(prefix = "egress")
public interface EgressConfig {

  /**
   * SIDECAR_FORWARD_UNKNOWN_REQUESTS: send requests no route matches to the gateway instead of a 404. When not
   * set it follows SIDECAR_TENANT_SCOPED_ROUTING_ENABLED (application.properties), as upstream master.
   */
  @WithDefault("false")
  boolean forwardUnknownRequests();

  /**
   * SIDECAR_TENANT_SCOPED_ROUTING_ENABLED (upstream master, EUREKA-899): the module's own routes come from
   * {@code GET /modules/<id>/bootstrap}, and each entitled tenant gets egress routes of its own, from the
   * applications it is entitled to ({@code POST /modules/<id>/bootstrap}); egress no tenant table resolves goes to
   * the gateway.
   */
  @WithDefault("false")
  boolean tenantScopedRouting();

  /** SIDECAR_FORWARD_UNKNOWN_REQUESTS_DESTINATION: the gateway. */
  @WithDefault("http://api-gateway:8000")
  String forwardUnknownRequestsDestination();

  /**
   * SIDECAR_EGRESS_LOOPBACK_ONLY: accept egress requests only from the pod itself (loopback peer). In the
   * standard deployment module and sidecar share the pod's network, so the module reaches its sidecar on
   * localhost and nobody else can use the sidecar's service token.
   */
  @WithDefault("true")
  boolean loopbackOnly();

  /**
   * SIDECAR_POD_PEER_ADDRESSES: the peer addresses that count as the pod itself (egress, and the self marker).
   * Exactly the loopback addresses a module's call to {@code localhost} comes from, not all of 127/8: a service
   * mesh's inbound proxy (Istio connects from 127.0.0.6) and {@code kubectl port-forward} also arrive on
   * loopback, and their callers are not the module.
   */
  @WithDefault("127.0.0.1,::1")
  List<String> podPeerAddresses();

  /**
   * SIDECAR_TENANT_INSTALL_EGRESS_WINDOW: after the module's tenant install ({@code /_/tenant}) is called for a
   * tenant it is not yet entitled to, how long its egress calls for that tenant are still accepted (modules load
   * reference data after answering the install).
   */
  @WithDefault("15m")
  Duration tenantInstallEgressWindow();

  /**
   * ROUTING_DYNAMIC_ENTITLEMENTS_CACHE_TTL: how long a tenant's entitled module ids, looked up for
   * {@code x-okapi-module-hint}, are kept; a failed lookup too, so a failing manager is not asked on every request.
   */
  @WithDefault("30s")
  Duration dynamicRoutingEntitlementsTtl();

  /** SIDECAR_ROUTE_OVERRIDES: {@code name=url,...}; a name is a module name or an interface id. Wins over discovery. */
  Optional<String> routeOverrides();

  /** SIDECAR_ROUTE_OVERRIDES_FILE: a JSON file {@code {"modules":{name:url},"interfaces":{id:url}}}, re-read on change. */
  Optional<String> routeOverridesFile();

  /** SIDECAR_ROUTE_OVERRIDES_POLL_INTERVAL: how often the overrides file is checked for changes. */
  @WithDefault("1s")
  Duration routeOverridesPollInterval();

  /** AM_CLIENT_URL: mgr-applications, where the module's routes come from when no descriptor file is given. */
  @WithDefault("http://mgr-applications:8081")
  String applicationsUrl();

  /** SIDECAR_DISCOVERY_REFRESH_INTERVAL: how often routes are re-read from mgr-applications. */
  @WithDefault("5m")
  Duration discoveryRefreshInterval();

  /** ROUTING_DYNAMIC_ENABLED: route egress requests with {@code x-okapi-module-hint} that no required module matches. */
  @WithDefault("false")
  boolean dynamicRoutingEnabled();

  /** Discovered locations of hinted modules kept for dynamic routing (upstream: 200). */
  @WithDefault("200")
  long discoveryCacheMaxSize();

  /**
   * HANDLER_EGRESS_IGNORE_SYSTEM_USER_TOKEN_ERROR: an egress request without {@code x-okapi-token} whose
   * system-user token cannot be had goes on without one. Off (upstream master, MODSIDECAR-197): a module that
   * requires no system user gets upstream's 400, one whose system user's token cannot be obtained a 503 with
   * {@code Retry-After: 1}. On for modules without a system user, such as mod-users-keycloak.
   */
  @WithDefault("false")
  boolean ignoreSystemUserTokenError();
}
