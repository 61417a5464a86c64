package org.folio.sidecar.ingress;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import jakarta.inject.Singleton;
import org.folio.sidecar.authz.AuthorizationCache;
import org.folio.sidecar.authz.AuthorizationRequest;
import org.folio.sidecar.authz.DesiredPermissions;
import org.folio.sidecar.config.ModuleConfig;
import org.folio.sidecar.config.SidecarConfig;
import org.folio.sidecar.config.TokenConfig;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.forward.Exchange;
import org.folio.sidecar.forward.OkapiHeaders;
import org.folio.sidecar.forward.Peers;
import org.folio.sidecar.forward.RequestForwarder;
import org.folio.sidecar.forward.Stage;
import org.folio.sidecar.forward.Target;
import org.folio.sidecar.routing.RoutingEntry;
import org.folio.sidecar.tenant.TenantEntitlements;
import org.folio.sidecar.tenant.TenantInstalls;
import org.folio.sidecar.token.ServiceTokens;
import org.folio.sidecar.crosstenant.Impersonation;
import org.folio.sidecar.token.TokenVerifier;
import org.folio.sidecar.token.VerifiedToken;
import org.jspecify.annotations.Nullable;

/**
 * Requests for the sidecar's own module: token verification, tenant match, authorization, then forwarding.
 * Each step either passes or fails the future with the answer for the caller; nothing blocks.
 */
@Singleton
public class IngressHandler {

  private static final String BEARER = "bearer ";
  private static final String NOT_ACCEPTED = "token not accepted by Keycloak";

  private final TokenVerifier tokenVerifier;
  private final AuthorizationCache decider;
  private final RequestForwarder forwarder;
  private final SelfSignature selfSignature;
  private final TenantEntitlements entitlements;
  private final DesiredPermissions desiredPermissions;
  private final Impersonation impersonation;
  private final boolean allowCrossTenant;
  private final boolean wildcardTokenOnly;
  private final Target module;
  private final String sidecarUrl;
  private final String serviceClientId;
  private final Peers peers;
  private final TenantInstalls installs;

  IngressHandler(TokenVerifier tokenVerifier, AuthorizationCache decider,
    RequestForwarder forwarder, SelfSignature selfSignature, TenantEntitlements entitlements,
    DesiredPermissions desiredPermissions, Impersonation impersonation, ModuleConfig moduleConfig,
    SidecarConfig sidecarConfig, TokenConfig tokenConfig, Peers peers, TenantInstalls installs) {
    this.serviceClientId = tokenConfig.serviceClientId();
    this.peers = peers;
    this.installs = installs;
    this.impersonation = impersonation;
    this.allowCrossTenant = sidecarConfig.allowCrossTenantRequests();
    this.wildcardTokenOnly = sidecarConfig.wildcardPermissionTokenOnly();
    this.entitlements = entitlements;
    this.desiredPermissions = desiredPermissions;
    this.tokenVerifier = tokenVerifier;
    this.decider = decider;
    this.forwarder = forwarder;
    this.selfSignature = selfSignature;
    this.module = Target.parse(moduleConfig.url());
    this.sidecarUrl = sidecarConfig.url();
  }

  /**
   * Checks and forwards a request for one of the module's own endpoints ({@code exchange.entry}); the
   * dispatcher has already validated the tenant header and the declared body size. No token reaches the module
   * that was not verified here: an unverified one is refused (401) or dropped, never passed on.
   */
  public Future<Void> process(Exchange exchange) {
    var request = exchange.request;
    var headers = request.headers();
    var entry = exchange.entry;
    var tenant = exchange.tenant;
    var token = callerToken(headers);
    var source = source(exchange);

    if (isSelf(exchange)) {
      // the module calling itself: no tenant or permission check, but a token it sends is still verified
      return token == null
        ? forward(exchange, null, null, null)
        : tokenVerifier.verify(token, source).compose(verified -> {
          exchange.userId = verified.userId();
          return forward(exchange, token, verified, null);
        });
    }
    exchange.stage = Stage.TENANT;
    if (entry.isTenantInstall()) {
      // mgr-tenant-entitlements calls the tenant install before the tenant is entitled; the module's calls out
      // during the install are then accepted for that tenant for a while (TenantInstalls)
      checkTenantName(tenant);
      installs.started(tenant);
    } else {
      checkEntitled(tenant);
    }
    if (entry.isSystem()) {
      return system(exchange, token, tenant, source);
    }
    var systemToken = blankToNull(headers.get(OkapiHeaders.SYSTEM_TOKEN));
    if (token == null && systemToken == null) {
      if (entry.requiresAuthorization()) {
        throw SidecarError.unauthorized("no token");
      }
      return forward(exchange, null, null, null);
    }
    exchange.stage = Stage.TOKEN_VERIFICATION;
    return verifyCallers(token, systemToken, tenant, source).compose(callers -> {
      exchange.userId = callers.user() == null ? null : callers.user().userId();
      // the verified user token only (an impersonated caller's is the one of this tenant); a bad one beside a
      // valid system token is dropped
      var forwardToken = callers.user() == null ? null : callers.user().raw();
      if (!entry.requiresAuthorization()) {
        return forward(exchange, forwardToken, callers.user(), callers.system());
      }
      // as upstream: with a system token present, Keycloak is asked about the system token
      var decisionToken = callers.system() != null ? callers.system() : callers.user();
      if (decisionToken == null) {
        return Future.failedFuture(SidecarError.unauthorized("no valid token"));
      }
      if (wildcardTokenOnly && entry.requiresOnlyAToken()) {
        // verified, of this tenant and of a session not known to have ended is all ["*"] asks for (MODSIDECAR-198):
        // no Keycloak decision
        if (decider.sessionEnded(decisionToken)) {
          return Future.failedFuture(SidecarError.unauthorized(NOT_ACCEPTED));
        }
        return forward(exchange, forwardToken, callers.user(), callers.system());
      }
      return authorize(exchange, entry, decisionToken)
        .compose(allowed -> forward(exchange, forwardToken, callers.user(), callers.system()));
    });
  }

  /**
   * A system interface (the tenant install): mgr-tenant-entitlements sends no token at all, so none is required,
   * as upstream; a token that is sent reaches the module only if it verifies as one of this tenant or of master.
   */
  private Future<Void> system(Exchange exchange, @Nullable String token, String tenant, String source) {
    if (token == null) {
      return forward(exchange, null, null, null);
    }
    return tokenVerifier.verify(token, source).transform(result -> {
      var verified = result.succeeded() ? result.result() : null;
      boolean usable = verified != null
        && (verified.tenant().equals(tenant) || ServiceTokens.MASTER.equals(verified.tenant()));
      return usable ? forward(exchange, token, verified, null) : forward(exchange, null, null, null);
    });
  }

  /**
   * A request the module sends itself through its sidecar: it carries this process's marker and comes from the
   * pod (a loopback peer). The marker reaches the module on every request, so it may end up in a log; from any
   * other address it is ignored and the normal checks run.
   */
  private boolean isSelf(Exchange exchange) {
    return selfSignature.matches(exchange.request.getHeader(OkapiHeaders.SIGNATURE))
      && peers.isPod(exchange.request.remoteAddress());
  }

  /** The caller's address: tokens naming realms not loaded yet are budgeted per address. */
  private static String source(Exchange exchange) {
    var address = exchange.request.remoteAddress();
    var host = address == null ? null : address.hostAddress();
    return host == null ? "unknown" : host;
  }

  private static void checkTenantName(String tenant) {
    if (tenant == null) {
      throw SidecarError.badRequest("x-okapi-tenant header is required");
    }
    // master is Keycloak's administration realm, never a tenant a module serves
    if (ServiceTokens.MASTER.equals(tenant)) {
      throw SidecarError.tenantNotEnabled(tenant);
    }
  }

  private void checkEntitled(String tenant) {
    checkTenantName(tenant);
    if (!entitlements.loaded()) {
      throw SidecarError.notReady("tenant entitlements are not loaded yet");
    }
    if (!entitlements.allows(tenant)) {
      throw SidecarError.tenantNotEnabled(tenant);
    }
  }

  /** The verified user and system tokens of a request; either may be absent. */
  private record Callers(@Nullable VerifiedToken user, @Nullable VerifiedToken system) {
  }

  /**
   * Verifies both tokens against the tenant. The system token must be what sidecars send as one: a
   * client-credentials token of this tenant's module-access client (no user, no session); anything else is a
   * 401. A bad user token is tolerated beside a valid system token (upstream's mod-pubsub "dummy" case, and a
   * user token that expired during a long job) but is then dropped: it carries no identity and no token to the
   * module.
   */
  private Future<Callers> verifyCallers(@Nullable String token, @Nullable String systemToken, String tenant,
    String source) {
    var user = token == null
      ? Future.<VerifiedToken>succeededFuture()
      : userIn(tokenVerifier.verify(token, source), tenant, source);
    if (systemToken == null) {
      return user.map(verified -> new Callers(verified, null));
    }
    return inTenant(tokenVerifier.verify(systemToken, source), tenant).compose(system -> {
      if (!isServiceToken(system)) {
        return Future.failedFuture(SidecarError.unauthorized("x-system-token is not a module-access token"));
      }
      return user.transform(result -> Future.succeededFuture(new Callers(result.succeeded() ? result.result() : null,
        system)));
    });
  }

  private boolean isServiceToken(VerifiedToken token) {
    return serviceClientId.equals(token.clientId()) && token.userId() == null && token.sessionId() == null;
  }

  /**
   * A user token for this tenant: its own, or with ALLOW_CROSS_TENANT_REQUESTS, one obtained in this tenant for
   * the same user (and verified like any other).
   */
  private Future<VerifiedToken> userIn(Future<VerifiedToken> verification, String tenant, String source) {
    if (!allowCrossTenant) {
      return inTenant(verification, tenant);
    }
    return verification.compose(verified -> verified.tenant().equals(tenant)
      ? Future.succeededFuture(verified)
      : impersonation.tokenFor(verified, tenant).compose(exchanged -> tokenVerifier.verify(exchanged, source)));
  }

  private static Future<VerifiedToken> inTenant(Future<VerifiedToken> verification, String tenant) {
    return verification.compose(verified -> verified.tenant().equals(tenant)
      ? Future.succeededFuture(verified)
      // cross-tenant requests are off: a token of one realm never acts in another
      : Future.failedFuture(SidecarError.unauthorized("token tenant does not match x-okapi-tenant")));
  }

  private Future<Void> authorize(Exchange exchange, RoutingEntry entry, VerifiedToken verified) {
    exchange.stage = Stage.AUTHORIZATION;
    var question = new AuthorizationRequest(exchange.tenant, entry.permission(exchange.method), verified);
    return decider.decide(question).compose(decision -> switch (decision) {
      case PERMIT -> Future.succeededFuture();
      case DENY -> Future.failedFuture(SidecarError.forbidden());
      case UNAUTHENTICATED -> {
        if (allowCrossTenant && verified.userId() != null) {
          // an exchanged cross-tenant token Keycloak no longer takes is obtained anew next time
          impersonation.forgetToken(exchange.tenant, verified.userId());
        }
        yield Future.failedFuture(SidecarError.unauthorized(NOT_ACCEPTED));
      }
    });
  }

  private Future<Void> forward(Exchange exchange, @Nullable String token, @Nullable VerifiedToken verified,
    @Nullable VerifiedToken system) {
    var headers = exchange.forwardHeaders();
    headers.remove(OkapiHeaders.AUTHORIZATION);
    // identity, tokens and permissions reach the module only from what the sidecar verified itself
    headers.remove(OkapiHeaders.USER_ID);
    headers.remove(OkapiHeaders.PERMISSIONS);
    headers.remove(OkapiHeaders.TOKEN);
    headers.remove(OkapiHeaders.SYSTEM_TOKEN);
    headers.set(OkapiHeaders.SIGNATURE, selfSignature.value());
    headers.set(OkapiHeaders.URL, sidecarUrl);
    if (token != null) {
      headers.set(OkapiHeaders.TOKEN, token);
    }
    if (system != null) {
      headers.set(OkapiHeaders.SYSTEM_TOKEN, system.raw());
    }
    if (verified != null && verified.userId() != null) {
      headers.set(OkapiHeaders.USER_ID, verified.userId());
      var desired = exchange.entry.permissionsDesired();
      if (!desired.isEmpty()) {
        exchange.stage = Stage.DESIRED_PERMISSIONS;
        return desiredPermissions.header(exchange.tenant, verified.userId(), desired).compose(permissions -> {
          permissions.ifPresent(value -> headers.set(OkapiHeaders.PERMISSIONS, value));
          return send(exchange, headers);
        });
      }
    }
    return send(exchange, headers);
  }

  private Future<Void> send(Exchange exchange, MultiMap headers) {
    exchange.stage = Stage.FORWARDING;
    exchange.moduleStartNanos = System.nanoTime();
    return forwarder.forward(exchange, module, headers)
      .onSuccess(started -> exchange.moduleAnsweredNanos = System.nanoTime());
  }

  /** The caller's token from x-okapi-token or a Bearer Authorization header; both present must agree. */
  private static @Nullable String callerToken(MultiMap headers) {
    var okapiToken = blankToNull(headers.get(OkapiHeaders.TOKEN));
    var authorization = blankToNull(headers.get(OkapiHeaders.AUTHORIZATION));
    if (authorization == null) {
      return okapiToken;
    }
    if (authorization.length() <= BEARER.length()
      || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      throw SidecarError.badRequest("Authorization header must hold a Bearer token");
    }
    var bearer = authorization.substring(BEARER.length()).trim();
    if (okapiToken != null && !okapiToken.equals(bearer)) {
      throw SidecarError.badRequest("X-Okapi-Token is not equal to Authorization token");
    }
    return bearer;
  }

  private static @Nullable String blankToNull(@Nullable String value) {
    return value == null || value.isBlank() ? null : value;
  }

}
