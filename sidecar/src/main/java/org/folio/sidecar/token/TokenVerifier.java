package org.folio.sidecar.token;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import com.github.benmanes.caffeine.cache.Expiry;
import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import io.smallrye.jwt.auth.principal.DefaultJWTParser;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.ParseException;
import io.vertx.core.Future;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.folio.sidecar.config.CacheBudget;
import org.folio.sidecar.config.CacheBudgets;
import org.folio.sidecar.config.ConfigValidator;
import org.folio.sidecar.config.KeycloakConfig;
import org.folio.sidecar.error.SidecarError;
import org.jose4j.jwt.consumer.InvalidJwtException;
import org.jspecify.annotations.Nullable;

/**
 * Verifies a caller's Keycloak token: its issuer must be exactly {@code KC_URL/realms/<tenant>} (upstream only
 * checks a prefix, which lets {@code http://keycloak:8080.evil/...} in), or with KC_URI_VALIDATION_ENABLED=false
 * any (or a KC_ISSUER_ORIGINS) origin followed by exactly {@code /realms/<tenant>}; it must be an access token
 * ({@code typ} Bearer, not an ID token), signed by that realm's key as fetched from KC_URL (never from the
 * issuer's own address) with an asymmetric algorithm, and not expired. Failures are 401s whose reasons never
 * quote the token or its claims.
 */
@Singleton
public class TokenVerifier {

  private static final Set<String> ASYMMETRIC = Set.of(
    "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512");
  private static final Set<SignatureAlgorithm> ALLOWED = EnumSet.of(
    SignatureAlgorithm.RS256, SignatureAlgorithm.RS384, SignatureAlgorithm.RS512,
    SignatureAlgorithm.PS256, SignatureAlgorithm.PS384, SignatureAlgorithm.PS512,
    SignatureAlgorithm.ES256, SignatureAlgorithm.ES384, SignatureAlgorithm.ES512);
  private static final Base64.Decoder BASE64URL = Base64.getUrlDecoder();

  /** What Keycloak writes into {@code typ} of access tokens; ID, refresh and logout tokens say otherwise. */
  private static final String ACCESS_TOKEN_TYPE = "Bearer";
  private static final String REALMS_PATH = "/realms/";

  private final RealmKeys realmKeys;
  private final String issuerPrefix;
  private final boolean exactIssuer;
  /** Issuer origins accepted when the issuer is not compared with KC_URL; empty: any. */
  private final Set<String> issuerOrigins;
  /** One parser for every realm: the issuer is checked here before the signature, and compared again after. */
  private final DefaultJWTParser parser;
  /**
   * Tokens already verified, by their exact text: the same bytes carry the same signature, so a token reused
   * for many requests (the normal case for its 10 minutes) is checked cryptographically once. Expiry is still
   * checked on every use.
   */
  private final Cache<String, VerifiedToken> verified;
  private final long skewSeconds;
  private final Clock clock;

  TokenVerifier(RealmKeys realmKeys, KeycloakConfig config, Ticker ticker, Clock clock) {
    this.realmKeys = realmKeys;
    this.clock = clock;
    this.issuerPrefix = ConfigValidator.withoutTrailingSlash(config.url()) + REALMS_PATH;
    this.exactIssuer = config.uriValidationEnabled();
    this.issuerOrigins = issuerOrigins(config);
    this.skewSeconds = config.jwtClockSkew().toSeconds();
    var context = new JWTAuthContextInfo();
    context.setSignatureAlgorithm(ALLOWED);
    context.setClockSkew((int) config.jwtClockSkew().toSeconds());
    context.setRequireNamedPrincipal(false);
    this.parser = new DefaultJWTParser(context);
    // the key and the record's raw text are one string; the claims' strings come on top
    this.verified = CacheBudgets.verifiedTokens(config).<String, VerifiedToken>apply(Caffeine.newBuilder(),
      (token, claims) -> CacheBudgets.VERIFIED_TOKEN_OVERHEAD + CacheBudget.bytesOf(token)
        + CacheBudget.bytesOf(claims.userId()) + CacheBudget.bytesOf(claims.sessionId())
        + CacheBudget.bytesOf(claims.subject()) + CacheBudget.bytesOf(claims.clientId()))
      .ticker(ticker)
      // maintenance on the calling thread, as the decision cache's: no pool thread woken per few hits
      .executor(Runnable::run)
      .expireAfter(Expiry.<String, VerifiedToken>creating((token, claims) -> Duration.ofSeconds(
        Math.max(0, claims.expiresAtSeconds() + skewSeconds - clock.millis() / 1000))))
      .build();
  }

  /** Verifies {@code token}, sent from {@code source} (the caller's address: the budget for unknown realms is per source). */
  public Future<VerifiedToken> verify(String token, String source) {
    var known = verified.getIfPresent(token);
    if (known != null) {
      return unexpired(known);
    }
    // the injected clock decides expiry, on the first use as on every later one
    return verifySignature(token, source).compose(this::unexpired).onSuccess(claims -> verified.put(token, claims));
  }

  private Future<VerifiedToken> unexpired(VerifiedToken claims) {
    return claims.expiresAtSeconds() + skewSeconds >= clock.millis() / 1000
      ? Future.succeededFuture(claims)
      : Future.failedFuture(SidecarError.unauthorized("token expired"));
  }

  private Future<VerifiedToken> verifySignature(String token, String source) {
    int firstDot = token.indexOf('.');
    int secondDot = firstDot < 0 ? -1 : token.indexOf('.', firstDot + 1);
    if (firstDot <= 0 || secondDot < 0 || secondDot == token.length() - 1 || token.indexOf('.', secondDot + 1) >= 0) {
      return Future.failedFuture(SidecarError.unauthorized("malformed token"));
    }
    JsonObject header;
    JsonObject payload;
    try {
      header = decode(token, 0, firstDot);
      payload = decode(token, firstDot + 1, secondDot);
    } catch (IllegalArgumentException | DecodeException | ClassCastException e) {
      return Future.failedFuture(SidecarError.unauthorized("malformed token"));
    }
    var algorithm = header.getValue("alg");
    if (!(algorithm instanceof String alg) || !ASYMMETRIC.contains(alg)) {
      return Future.failedFuture(SidecarError.unauthorized("token algorithm is not accepted"));
    }
    var keyId = header.getValue("kid");
    var issuer = payload.getValue("iss");
    if (!(keyId instanceof String kid) || !(issuer instanceof String iss)) {
      return Future.failedFuture(SidecarError.unauthorized("token lacks key id or issuer"));
    }
    if (!ACCESS_TOKEN_TYPE.equals(payload.getValue("typ"))) {
      // an ID token is signed by the same realm key, but it is proof of a login to a client, not a grant
      return Future.failedFuture(SidecarError.unauthorized("not an access token"));
    }
    var realm = realmOf(iss);
    if (realm == null) {
      return Future.failedFuture(SidecarError.unauthorized(exactIssuer
        ? "token issuer is not a realm of KC_URL"
        : "token issuer is not an accepted realm URL"));
    }
    return realmKeys.key(realm, kid, source).compose(key -> {
      if (key.algorithm() != null && !key.algorithm().equals(alg)) {
        return Future.failedFuture(SidecarError.unauthorized("token algorithm does not match its key"));
      }
      try {
        var jwt = parser.verify(token, key.key());
        if (!iss.equals(jwt.getIssuer())) {
          return Future.failedFuture(SidecarError.unauthorized("invalid token"));
        }
        var verifiedToken = toVerified(token, realm, jwt);
        var missing = missingClaim(verifiedToken);
        return missing == null
          ? Future.succeededFuture(verifiedToken)
          : Future.failedFuture(SidecarError.unauthorized(missing));
      } catch (ParseException e) {
        return Future.failedFuture(SidecarError.unauthorized(isExpired(e) ? "token expired" : "invalid token"));
      }
    });
  }

  /** The realm a token's issuer names, if the issuer is acceptable. */
  private @Nullable String realmOf(String issuer) {
    if (exactIssuer) {
      return issuer.startsWith(issuerPrefix) ? validRealm(issuer.substring(issuerPrefix.length())) : null;
    }
    URI uri;
    try {
      uri = new URI(issuer);
    } catch (URISyntaxException e) {
      return null;
    }
    var scheme = uri.getScheme();
    var path = uri.getRawPath();
    if (!("http".equals(scheme) || "https".equals(scheme)) || uri.getHost() == null || uri.getRawUserInfo() != null
      || uri.getRawQuery() != null || uri.getRawFragment() != null || path == null || !path.startsWith(REALMS_PATH)) {
      return null;
    }
    if (!issuerOrigins.isEmpty() && !issuerOrigins.contains(origin(uri))) {
      return null;
    }
    return validRealm(path.substring(REALMS_PATH.length()));
  }

  private static @Nullable String validRealm(String realm) {
    return TenantNames.isValid(realm) ? realm : null;
  }

  private static Set<String> issuerOrigins(KeycloakConfig config) {
    var listed = config.issuerOrigins().orElse(List.of());
    if (listed.isEmpty()) {
      return Set.of();
    }
    var origins = new HashSet<String>();
    origins.add(origin(URI.create(config.url())));
    listed.forEach(origin -> origins.add(origin(URI.create(origin.trim()))));
    return Set.copyOf(origins);
  }

  /** {@code scheme://host[:port]} in lower case, the port only when it is not the scheme's default. */
  public static String origin(URI uri) {
    var host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
    var scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    int port = uri.getPort();
    boolean defaultPort = port < 0 || ("http".equals(scheme) && port == 80) || ("https".equals(scheme) && port == 443);
    return scheme + "://" + host + (defaultPort ? "" : ":" + port);
  }

  private static VerifiedToken toVerified(String raw, String realm, JsonWebToken jwt) {
    String sessionId = jwt.getClaim("sid");
    if (sessionId == null) {
      sessionId = jwt.getClaim("session_state");
    }
    return new VerifiedToken(raw, realm, jwt.getClaim("azp"), jwt.getSubject(), jwt.getClaim("user_id"), sessionId,
      jwt.getExpirationTime(), jwt.getClaim("iat") instanceof Number iat ? iat.longValue() : 0);
  }

  /**
   * Why a signed token cannot be used, if it lacks a claim the sidecar relies on; null when it has them. A
   * lightweight access token carries only what Keycloak always writes ({@code azp}, {@code sid}, ...) plus the
   * claims of mappers marked {@code lightweight.claim}: without that mark on FOLIO's "user_id mapper" a user's
   * token has a session but no {@code user_id}, and its decisions, logout and permissions could not be tied to the
   * user (docs/configuration.md, lightweight access tokens).
   */
  private static @Nullable String missingClaim(VerifiedToken token) {
    if (token.clientId() == null) {
      // decisions are per client: without azp, one client's grant could serve another's token
      return "token lacks the azp claim";
    }
    if (token.sessionId() != null && token.userId() == null) {
      return "token of a user session lacks the user_id claim (its mapper must be marked lightweight.claim)";
    }
    return null;
  }

  private static JsonObject decode(String token, int from, int to) {
    var bytes = BASE64URL.decode(token.substring(from, to));
    return new JsonObject(new String(bytes, StandardCharsets.UTF_8));
  }

  private static boolean isExpired(ParseException e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof InvalidJwtException invalid) {
        return invalid.hasExpired();
      }
    }
    return false;
  }
}
