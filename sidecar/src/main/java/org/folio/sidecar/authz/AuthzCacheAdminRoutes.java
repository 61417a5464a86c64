package org.folio.sidecar.authz;

import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.error.ErrorResponder;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.token.TenantNames;
import org.jspecify.annotations.Nullable;

/**
 * Operator endpoints to drop cached decisions: {@code DELETE /admin/authz-cache/tenants/{tenant}} and below it
 * {@code /users/{userId}} and {@code /sessions/{sessionId}}. Off unless SIDECAR_AUTHZ_CACHE_ADMIN_ENABLED, and
 * then only for callers presenting SIDECAR_AUTHZ_CACHE_ADMIN_TOKEN as {@code x-sidecar-admin-token}.
 */
@Singleton
public class AuthzCacheAdminRoutes {

  private static final String BASE = "/admin/authz-cache/tenants/:tenant";

  private final AuthorizationCache cache;
  private final byte @Nullable [] adminToken;
  private final boolean enabled;
  private final ErrorResponder errors;

  AuthzCacheAdminRoutes(AuthorizationCache cache, AuthzCacheConfig config, ErrorResponder errors) {
    this.cache = cache;
    this.errors = errors;
    this.enabled = config.adminEnabled();
    this.adminToken = config.adminToken().map(token -> token.getBytes(StandardCharsets.UTF_8)).orElse(null);
  }

  void register(@Observes Router router) {
    if (!enabled) {
      return;
    }
    router.delete(BASE).order(-1).handler(context -> invalidate(context, Scope.TENANT));
    router.delete(BASE + "/users/:id").order(-1).handler(context -> invalidate(context, Scope.USER));
    router.delete(BASE + "/sessions/:id").order(-1).handler(context -> invalidate(context, Scope.SESSION));
  }

  private enum Scope {
    TENANT, USER, SESSION
  }

  private void invalidate(RoutingContext context, Scope scope) {
    var presented = context.request().getHeader("x-sidecar-admin-token");
    if (presented == null || !MessageDigest.isEqual(adminToken, presented.getBytes(StandardCharsets.UTF_8))) {
      errors.respond(context.response(), SidecarError.unauthorized("admin token required"));
      return;
    }
    var tenant = context.pathParam("tenant");
    if (!TenantNames.isValid(tenant)) {
      errors.respond(context.response(), SidecarError.badRequest("Invalid tenant"));
      return;
    }
    int dropped = switch (scope) {
      case TENANT -> cache.invalidateTenant(tenant);
      case USER -> cache.invalidateUser(tenant, context.pathParam("id"));
      case SESSION -> cache.invalidateSession(tenant, context.pathParam("id"));
    };
    context.response().putHeader("content-type", "application/json")
      .end(new JsonObject().put("invalidated", dropped).encode());
  }
}
