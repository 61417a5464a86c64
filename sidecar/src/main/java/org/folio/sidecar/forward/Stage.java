package org.folio.sidecar.forward;

/**
 * How far a request got before the sidecar answered it with an error, for the error log line (upstream
 * MODSIDECAR-199). Where upstream has a filter for the step, the name is that filter's, so one search finds the
 * step in either sidecar's logs.
 */
public final class Stage {

  /** Path, headers, body size and the route lookup. */
  public static final String REQUEST_VALIDATION = "RequestValidationFilter";
  /** Whether the tenant is entitled to the module. */
  public static final String TENANT = "TenantFilter";
  /** Verifying the caller's user and system tokens (and a cross-tenant token exchange). */
  public static final String TOKEN_VERIFICATION = "KeycloakJwtFilter";
  /** Keycloak's (or the cache's) decision on the endpoint's permission. */
  public static final String AUTHORIZATION = "KeycloakAuthorizationFilter";
  /** The caller's desired permissions from mod-users-keycloak. */
  public static final String DESIRED_PERMISSIONS = "DesiredPermissionsFilter";
  /** Egress: where a hinted module lives (mgr-tenant-entitlements, mgr-applications). */
  public static final String DYNAMIC_ROUTING = "DynamicRouting";
  /** Egress: the module's system user's token. */
  public static final String SYSTEM_USER_TOKEN = "SystemUserToken";
  /** Egress: the tenant's service token. */
  public static final String SERVICE_TOKEN = "ServiceToken";
  /** Sending the request to its target and waiting for the answer's status line. */
  public static final String FORWARDING = "RequestForwarding";

  private Stage() {
  }
}
