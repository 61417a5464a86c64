package org.folio.sidecar.error;

import org.jspecify.annotations.Nullable;

/**
 * A request the sidecar answers itself, in upstream's error format. Carries no stack trace: these are expected
 * outcomes on the hot path, not bugs, and a trace would only cost time and risk leaking request data into logs.
 */
public final class SidecarError extends RuntimeException {

  private final int status;
  private final String type;
  private final String code;
  private final @Nullable String reason;
  private final boolean counted;

  public SidecarError(int status, String type, String code, String message, @Nullable String reason) {
    this(status, type, code, message, reason, null, false);
  }

  private SidecarError(int status, String type, String code, String message, @Nullable String reason,
    @Nullable Throwable cause, boolean counted) {
    super(message, cause, false, false);
    this.status = status;
    this.type = type;
    this.code = code;
    this.reason = reason;
    this.counted = counted;
  }

  /**
   * The same answer, left out of the per-request error log: a refusal anyone can cause at any rate (a token naming
   * a made-up realm) would otherwise write a WARN line per request; whoever refuses it logs a count instead.
   */
  public SidecarError counted() {
    return new SidecarError(status, type, code, String.valueOf(getMessage()), reason, getCause(), true);
  }

  /** Whether this refusal is logged as a count by its source rather than as a line of its own. */
  public boolean isCounted() {
    return counted;
  }

  /** The same answer, remembering what caused it, so the error log can name the root cause's type. */
  @SuppressWarnings("ReferenceEquality") // identity: an error is never its own cause
  public SidecarError causedBy(Throwable cause) {
    // every SidecarError is built with a message, so getMessage() is never null here
    return cause == this
      ? this
      : new SidecarError(status, type, code, String.valueOf(getMessage()), reason, cause,
        counted);
  }

  /**
   * The type of what lies at the bottom of this error's causes (upstream MODSIDECAR-199's {@code cause}), null
   * when nothing caused it; another sidecar answer is named by its upstream type.
   */
  @SuppressWarnings("ReferenceEquality") // identity: the walk ends at the error that has no cause
  public @Nullable String rootCauseType() {
    Throwable root = this;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    if (root == this) {
      return null;
    }
    return root instanceof SidecarError error ? error.type() : root.getClass().getSimpleName();
  }

  public static SidecarError unauthorized(String reason) {
    return new SidecarError(401, "UnauthorizedException", "authorization_error", "Unauthorized", reason);
  }

  public static SidecarError forbidden() {
    return new SidecarError(403, "ForbiddenException", "authorization_error", "Access Denied", null);
  }

  /** Refused for a reason the log may name (a wrong credential); the body stays upstream's plain 403. */
  public static SidecarError forbidden(String reason) {
    return new SidecarError(403, "ForbiddenException", "authorization_error", "Access Denied", reason);
  }

  public static SidecarError methodNotAllowed(String method, String path) {
    return new SidecarError(405, "MethodNotAllowedException", "service_error",
      "Method not allowed [method: " + method + ", path: " + path + "]", null);
  }

  public static SidecarError badRequest(String message) {
    return badRequest(message, null);
  }

  public static SidecarError badRequest(String message, @Nullable String reason) {
    return new SidecarError(400, "BadRequestException", "service_error", message, reason);
  }

  public static SidecarError tenantNotEnabled(String tenant) {
    return new SidecarError(400, "TenantNotEnabledException", "tenant_not_enabled",
      "Application is not enabled for tenant: " + tenant, null);
  }

  public static SidecarError routeNotFound(String method, String path) {
    return new SidecarError(404, "NotFoundException", "route_not_found_error",
      "Route is not found [method: " + method + ", path: " + path + "]", null);
  }

  public static SidecarError payloadTooLarge(long limit) {
    return new SidecarError(413, "PayloadTooLargeException", "service_error",
      "Request body exceeds the limit of " + limit + " bytes", null);
  }

  public static SidecarError keycloakUnavailable(String reason) {
    // not authorization_error: an outage is not a denial, and dashboards counting denials must not count it
    return new SidecarError(503, "AuthorizationServiceUnavailableException", "service_error",
      "Authorization service is unavailable", reason);
  }

  /** SIDECAR_FORWARD_MAX_CONNECTIONS_PER_CALLER: one caller already holds its share of module connections. */
  public static SidecarError tooManyConnections(int cap) {
    return new SidecarError(429, "TooManyRequestsException", "service_error", "Too many concurrent requests",
      "the caller already holds " + cap + " module connections (SIDECAR_FORWARD_MAX_CONNECTIONS_PER_CALLER)");
  }

  /** SIDECAR_ADMIN_FAILURE_BACKOFF: the caller's address sent too many wrong admin credentials and must wait. */
  public static SidecarError tooManyAdminFailures(long retryAfterSeconds) {
    return new SidecarError(429, "TooManyRequestsException", "service_error", "Too many requests",
      "too many wrong admin credentials from this address, retry after " + retryAfterSeconds + " s");
  }

  public static SidecarError moduleUnavailable(String reason) {
    return new SidecarError(502, "BadGatewayException", "service_error", "Failed to proxy request", reason);
  }

  public static SidecarError moduleTimeout() {
    return new SidecarError(504, "GatewayTimeoutException", "read_timeout_error", "Request Timeout",
      "no response from the module in time");
  }

  public static SidecarError notReady(String reason) {
    return new SidecarError(503, "ServiceUnavailableException", "service_error", "Sidecar is not ready", reason);
  }

  public static SidecarError egressNotAllowed() {
    return new SidecarError(403, "ForbiddenException", "authorization_error", "Access Denied",
      "egress is accepted only from the module's own pod");
  }

  public static SidecarError locationNotFound(String moduleId) {
    return new SidecarError(400, "BadRequestException", "service_error",
      "Module location is not found for moduleId: " + moduleId, null);
  }

  public static SidecarError targetRejectedToken() {
    return new SidecarError(503, "ServiceUnavailableException", "authorization_error",
      "Service Unavailable. Retry later", "the target refused the service token; a new one is being obtained");
  }

  public static SidecarError systemUserTokenRequired(String moduleId) {
    return new SidecarError(400, "BadRequestException", "service_error",
      "System user token is required if the request doesn't contain X-Okapi-Token. Check that system user is"
        + " configured for the module: " + moduleId,
      null);
  }

  /** The module requires a system user whose token cannot be had now (upstream MODSIDECAR-197: fail fast). */
  public static SidecarError systemUserTokenUnavailable(@Nullable String reason) {
    return new SidecarError(503, "SystemUserTokenUnavailableException", "service_error",
      "System user token is unavailable. Retry later", reason);
  }

  public static SidecarError moduleIdMismatch() {
    return new SidecarError(403, "ForbiddenException", "authorization_error", "Access Denied",
      "module id does not match this sidecar's module");
  }

  public static SidecarError managerFailed(int status, String reason) {
    return new SidecarError(status, "WebApplicationException", "service_error", "Failed to perform request", reason);
  }

  /** mgr-applications knows no discovery of a hinted module: its 404 with the message upstream passes on. */
  public static SidecarError discoveryNotFound(String moduleId) {
    return discoveryNotFound(moduleId, "mgr-applications answered 404");
  }

  /**
   * A hinted module id the tenant cannot reach: the 404 upstream gives for a module discovery does not know, so
   * a caller cannot tell "not entitled" from "not deployed" and never retries a client error.
   */
  public static SidecarError discoveryNotFound(String moduleId, String reason) {
    return hintNotResolved(404, "Unable to find discovery of the module with id: " + moduleId, reason);
  }

  /** A hint that resolves to no single entitled module (404 none, 409 several), in upstream's words. */
  public static SidecarError hintNotResolved(int status, String message, @Nullable String reason) {
    return new SidecarError(status, "WebApplicationException", "service_error", message, reason);
  }

  public static SidecarError unknown(String message) {
    return new SidecarError(500, "IllegalArgumentException", "unknown_error", message, null);
  }

  public static SidecarError secretNotFound(String key) {
    return new SidecarError(500, "SecretNotFoundException", "unknown_error", "Secret not found: key = " + key, null);
  }

  public static SidecarError secretStoreUnavailable(String reason) {
    return new SidecarError(503, "SecureStoreServiceException", "service_error", "Secret store is unavailable",
      reason);
  }

  public static SidecarError internal(String reason) {
    return new SidecarError(500, "InternalServerErrorException", "unknown_error", "Internal error", reason);
  }

  public int status() {
    return status;
  }

  public String type() {
    return type;
  }

  public String code() {
    return code;
  }

  /** Why, in words safe to show the caller and to log: never a token or a claim value. */
  public @Nullable String reason() {
    return reason;
  }
}
