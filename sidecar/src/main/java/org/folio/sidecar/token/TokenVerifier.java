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
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Set;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.folio.sidecar.config.ConfigValidator;
import org.folio.sidecar.config.KeycloakConfig;
import org.folio.sidecar.error.SidecarError;
import org.jose4j.jwt.consumer.InvalidJwtException;
import org.jspecify.annotations.Nullable;

/**
 * Verifies a caller's Keycloak token: its issuer must be exactly {@code KC_URL/realms/<tenant>} (upstream only
 * checks a prefix, which lets {@code http://keycloak:8080.evil/...} in), it must be signed by that realm's key
 * with an asymmetric algorithm, and it must not be expired. Failures are 401s whose reasons never quote the
 * token or its claims.
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

  private final RealmKeys realmKeys;
  private final KeycloakConfig config;
  private final String issuerPrefix;
  private final Cache<String, DefaultJWTParser> parsers;
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
    this.config = config;
    this.issuerPrefix = ConfigValidator.withoutTrailingSlash(config.url()) + "/realms/";
    this.skewSeconds = config.jwtClockSkew().toSeconds();
    this.parsers = Caffeine.newBuilder().maximumSize(config.realmsMaxSize()).build();
    this.verified = Caffeine.newBuilder()
      .maximumSize(config.verifiedTokenCacheSize())
      .ticker(ticker)
      .expireAfter(Expiry.<String, VerifiedToken>creating((token, claims) -> Duration.ofSeconds(
        Math.max(0, claims.expiresAtSeconds() + skewSeconds - clock.millis() / 1000))))
      .build();
  }

  public Future<VerifiedToken> verify(String token) {
    var known = verified.getIfPresent(token);
    if (known != null) {
      return unexpired(known);
    }
    // the injected clock decides expiry, on the first use as on every later one
    return verifySignature(token).compose(this::unexpired).onSuccess(claims -> verified.put(token, claims));
  }

  private Future<VerifiedToken> unexpired(VerifiedToken claims) {
    return claims.expiresAtSeconds() + skewSeconds >= clock.millis() / 1000
      ? Future.succeededFuture(claims)
      : Future.failedFuture(SidecarError.unauthorized("token expired"));
  }

  private Future<VerifiedToken> verifySignature(String token) {
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
    var realm = realmOf(iss);
    if (realm == null) {
      return Future.failedFuture(SidecarError.unauthorized("token issuer is not a realm of KC_URL"));
    }
    return realmKeys.key(realm, kid).compose(key -> {
      if (key.algorithm() != null && !key.algorithm().equals(alg)) {
        return Future.failedFuture(SidecarError.unauthorized("token algorithm does not match its key"));
      }
      try {
        return Future.succeededFuture(toVerified(token, realm, parser(realm).verify(token, key.key())));
      } catch (ParseException e) {
        return Future.failedFuture(SidecarError.unauthorized(isExpired(e) ? "token expired" : "invalid token"));
      }
    });
  }

  private @Nullable String realmOf(String issuer) {
    if (!issuer.startsWith(issuerPrefix)) {
      return null;
    }
    var realm = issuer.substring(issuerPrefix.length());
    return TenantNames.isValid(realm) ? realm : null;
  }

  private DefaultJWTParser parser(String realm) {
    return parsers.get(realm, r -> {
      var context = new JWTAuthContextInfo();
      context.setIssuedBy(issuerPrefix + r);
      context.setSignatureAlgorithm(ALLOWED);
      context.setClockSkew((int) config.jwtClockSkew().toSeconds());
      context.setRequireNamedPrincipal(false);
      return new DefaultJWTParser(context);
    });
  }

  private static VerifiedToken toVerified(String raw, String realm, JsonWebToken jwt) {
    String sessionId = jwt.getClaim("sid");
    if (sessionId == null) {
      sessionId = jwt.getClaim("session_state");
    }
    return new VerifiedToken(raw, realm, jwt.getClaim("azp"), jwt.getSubject(), jwt.getClaim("user_id"), sessionId,
      jwt.getExpirationTime());
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
