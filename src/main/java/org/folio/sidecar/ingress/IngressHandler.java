package org.folio.sidecar.ingress;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Singleton;
import java.util.concurrent.ThreadLocalRandom;
import org.folio.sidecar.authz.AuthorizationDecider;
import org.folio.sidecar.authz.AuthorizationRequest;
import org.folio.sidecar.config.ModuleConfig;
import org.folio.sidecar.config.SidecarConfig;
import org.folio.sidecar.error.ErrorResponder;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.forward.HopByHopHeaders;
import org.folio.sidecar.forward.OkapiHeaders;
import org.folio.sidecar.forward.RequestForwarder;
import org.folio.sidecar.forward.Target;
import org.folio.sidecar.routing.RoutingEntry;
import org.folio.sidecar.routing.RoutingTableProvider;
import org.folio.sidecar.token.TenantNames;
import org.folio.sidecar.token.TokenVerifier;
import org.folio.sidecar.token.VerifiedToken;

/**
 * Requests for the sidecar's own module: route lookup, header checks, token verification, tenant match,
 * authorization, then forwarding. Each step either passes or answers the caller; nothing blocks.
 */
@Singleton
public class IngressHandler implements Handler<RoutingContext> {

  private static final String BEARER = "bearer ";

  private final RoutingTableProvider routes;
  private final TokenVerifier tokenVerifier;
  private final AuthorizationDecider decider;
  private final RequestForwarder forwarder;
  private final SelfSignature selfSignature;
  private final AccessLog accessLog;
  private final Target module;
  private final String sidecarUrl;
  private final long maxBodySize;

  IngressHandler(RoutingTableProvider routes, TokenVerifier tokenVerifier, AuthorizationDecider decider,
    RequestForwarder forwarder, SelfSignature selfSignature, AccessLog accessLog, ModuleConfig moduleConfig,
    SidecarConfig sidecarConfig) {
    this.routes = routes;
    this.tokenVerifier = tokenVerifier;
    this.decider = decider;
    this.forwarder = forwarder;
    this.selfSignature = selfSignature;
    this.accessLog = accessLog;
    this.module = Target.parse(moduleConfig.url());
    this.sidecarUrl = sidecarConfig.url();
    this.maxBodySize = sidecarConfig.maxBodySize();
  }

  @Override
  public void handle(RoutingContext context) {
    var request = context.request();
    // the body must wait for the authorization verdict; it is streamed to the module only after
    request.pause();
    var exchange = new IngressExchange(request, System.nanoTime());
    context.addEndHandler(done -> accessLog.record(exchange, request.response().getStatusCode()));
    try {
      process(exchange).onFailure(cause -> reject(request, asSidecarError(cause)));
    } catch (SidecarError error) {
      reject(request, error);
    }
  }

  private static void reject(HttpServerRequest request, SidecarError error) {
    if (!request.isEnded()) {
      if (hasBody(request) && request.version() != HttpVersion.HTTP_2) {
        // an unread HTTP/1 body stays unread: closing is cheaper than draining it and keeps the connection sane
        request.response().putHeader(HttpHeaders.CONNECTION, "close");
      } else {
        request.resume();
      }
    }
    ErrorResponder.respond(request.response(), error);
  }

  private static boolean hasBody(HttpServerRequest request) {
    var length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
    return (length != null && !"0".equals(length)) || request.headers().contains(HttpHeaders.TRANSFER_ENCODING);
  }

  private Future<Void> process(IngressExchange exchange) {
    var request = exchange.request;
    var headers = request.headers();
    exchange.requestId = requestId(headers.get(OkapiHeaders.REQUEST_ID));
    if (exchange.path == null || exchange.path.isEmpty() || exchange.path.charAt(0) != '/') {
      throw SidecarError.badRequest("Invalid request path");
    }
    var entry = routes.ingress().lookup(exchange.method, exchange.path);
    if (entry == null) {
      throw SidecarError.routeNotFound(exchange.method, exchange.path);
    }
    exchange.entry = entry;
    var tenant = headers.get(OkapiHeaders.TENANT);
    if (tenant != null && !TenantNames.isValid(tenant)) {
      throw SidecarError.badRequest("Invalid x-okapi-tenant header");
    }
    exchange.tenant = tenant;
    checkBodySize(headers.get(HttpHeaders.CONTENT_LENGTH));
    var token = callerToken(headers);

    if (entry.isSystem() || selfSignature.matches(headers.get(OkapiHeaders.SIGNATURE))) {
      return forward(exchange, token, null);
    }
    if (tenant == null) {
      throw SidecarError.badRequest("x-okapi-tenant header is required");
    }
    var systemToken = blankToNull(headers.get(OkapiHeaders.SYSTEM_TOKEN));
    if (token == null && systemToken == null) {
      if (entry.requiresAuthorization()) {
        throw SidecarError.unauthorized("no token");
      }
      return forward(exchange, null, null);
    }
    return verifyCallers(token, systemToken, tenant).compose(callers -> {
      exchange.userId = callers.user() == null ? null : callers.user().userId();
      if (!entry.requiresAuthorization()) {
        return forward(exchange, token, callers.user());
      }
      // as upstream: with a system token present, Keycloak is asked about the system token
      var decisionToken = callers.system() != null ? callers.system() : callers.user();
      if (decisionToken == null) {
        return Future.failedFuture(SidecarError.unauthorized("no valid token"));
      }
      return authorize(exchange, entry, decisionToken).compose(allowed -> forward(exchange, token, callers.user()));
    });
  }

  /** The verified user and system tokens of a request; either may be absent. */
  private record Callers(VerifiedToken user, VerifiedToken system) {
  }

  /**
   * Verifies both tokens against the tenant. A bad system token is always a 401; a bad user token is tolerated
   * beside a valid system token (upstream's mod-pubsub case) but then carries no identity to the module.
   */
  private Future<Callers> verifyCallers(String token, String systemToken, String tenant) {
    var user = token == null ? Future.<VerifiedToken>succeededFuture() : inTenant(tokenVerifier.verify(token), tenant);
    if (systemToken == null) {
      return user.map(verified -> new Callers(verified, null));
    }
    return inTenant(tokenVerifier.verify(systemToken), tenant).compose(system ->
      user.transform(result -> Future.succeededFuture(new Callers(result.succeeded() ? result.result() : null, system))));
  }

  private static Future<VerifiedToken> inTenant(Future<VerifiedToken> verification, String tenant) {
    return verification.compose(verified -> verified.tenant().equals(tenant) ? Future.succeededFuture(verified)
      // cross-tenant requests are off: a token of one realm never acts in another
      : Future.failedFuture(SidecarError.unauthorized("token tenant does not match x-okapi-tenant")));
  }

  private Future<Void> authorize(IngressExchange exchange, RoutingEntry entry, VerifiedToken verified) {
    var question = new AuthorizationRequest(exchange.tenant, entry.permission(exchange.method), verified);
    return decider.decide(question).compose(decision -> switch (decision) {
      case PERMIT -> Future.succeededFuture();
      case DENY -> Future.failedFuture(SidecarError.forbidden());
      case UNAUTHENTICATED -> Future.failedFuture(SidecarError.unauthorized("token not accepted by Keycloak"));
    });
  }

  private Future<Void> forward(IngressExchange exchange, String token, VerifiedToken verified) {
    var request = exchange.request;
    var headers = MultiMap.caseInsensitiveMultiMap().setAll(request.headers());
    HopByHopHeaders.strip(headers);
    headers.remove(HttpHeaders.HOST);
    headers.remove(OkapiHeaders.AUTHORIZATION);
    // identity and permissions reach the module only from what the sidecar verified itself
    headers.remove(OkapiHeaders.USER_ID);
    headers.remove(OkapiHeaders.PERMISSIONS);
    headers.set(OkapiHeaders.SIGNATURE, selfSignature.value());
    headers.set(OkapiHeaders.REQUEST_ID, exchange.requestId);
    headers.set(OkapiHeaders.URL, sidecarUrl);
    if (token != null) {
      headers.set(OkapiHeaders.TOKEN, token);
    }
    if (verified != null && verified.userId() != null) {
      headers.set(OkapiHeaders.USER_ID, verified.userId());
    }
    exchange.moduleStartNanos = System.nanoTime();
    return forwarder.forward(request, module, headers)
      .onSuccess(started -> exchange.moduleAnsweredNanos = System.nanoTime());
  }

  /** The caller's token from x-okapi-token or a Bearer Authorization header; both present must agree. */
  private static String callerToken(MultiMap headers) {
    var okapiToken = blankToNull(headers.get(OkapiHeaders.TOKEN));
    var authorization = blankToNull(headers.get(OkapiHeaders.AUTHORIZATION));
    if (authorization == null) {
      return okapiToken;
    }
    if (authorization.length() <= BEARER.length() || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      throw SidecarError.badRequest("Authorization header must hold a Bearer token");
    }
    var bearer = authorization.substring(BEARER.length()).trim();
    if (okapiToken != null && !okapiToken.equals(bearer)) {
      throw SidecarError.badRequest("X-Okapi-Token is not equal to Authorization token");
    }
    return bearer;
  }

  private void checkBodySize(String contentLength) {
    if (contentLength == null) {
      return;
    }
    long length;
    try {
      length = Long.parseLong(contentLength.trim());
    } catch (NumberFormatException e) {
      throw SidecarError.badRequest("Invalid content-length header");
    }
    if (length < 0) {
      throw SidecarError.badRequest("Invalid content-length header");
    }
    if (length > maxBodySize) {
      throw SidecarError.payloadTooLarge(maxBodySize);
    }
  }

  private static String requestId(String given) {
    if (given != null && !given.isBlank()) {
      return given;
    }
    return String.valueOf(100_000 + ThreadLocalRandom.current().nextInt(900_000));
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }

  static SidecarError asSidecarError(Throwable cause) {
    return cause instanceof SidecarError error ? error : SidecarError.internal(cause.getClass().getSimpleName());
  }
}
