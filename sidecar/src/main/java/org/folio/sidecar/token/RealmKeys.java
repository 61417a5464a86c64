package org.folio.sidecar.token;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.WebClient;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.security.PublicKey;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.folio.sidecar.config.ConfigValidator;
import org.folio.sidecar.config.KeycloakConfig;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.tracing.Tracing;
import org.jboss.logging.Logger;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.PublicJsonWebKey;
import org.jose4j.lang.JoseException;

/**
 * Signing keys of each realm, fetched from KC_URL (or KC_JWKS_BASE_URL) without blocking and kept in memory. A
 * token naming a key id we do not know triggers one refetch of its realm's keys (for key rotation), at most once
 * per KC_JWKS_MIN_REFETCH_INTERVAL, and concurrent misses share that one fetch. Realm names come from tokens not
 * yet verified, so realms Keycloak does not know are remembered apart from real ones, and at most
 * KC_JWKS_NEW_REALM_FETCHES realms not yet known are asked for per KC_JWKS_MIN_REFETCH_INTERVAL.
 */
@Singleton
public class RealmKeys {

  private static final Logger LOGGER = Logger.getLogger(RealmKeys.class);

  /** A realm's signing keys by key id, with the time they were fetched. */
  record KeySet(Map<String, SigningKey> byKeyId, long fetchedAtNanos) {
  }

  /** A public key and the algorithm Keycloak declared for it. */
  public record SigningKey(PublicKey key, String algorithm) {
  }

  private final WebClient client;
  private final KeycloakCalls calls;
  private final KeycloakConfig config;
  private final String jwksBase;
  private final Cache<String, KeySet> realms;
  /** Realms Keycloak answered 404 for: refused without asking again until KC_JWKS_MIN_REFETCH_INTERVAL passes. */
  private final Cache<String, Boolean> unknownRealms;
  private final Ticker ticker;
  private final Map<String, Future<KeySet>> inFlight = new ConcurrentHashMap<>();
  private long newRealmWindowStart;
  private int newRealmFetches;

  RealmKeys(@Named("keycloak") WebClient client, KeycloakCalls calls, KeycloakConfig config, Ticker ticker) {
    this.client = client;
    this.calls = calls;
    this.ticker = ticker;
    this.config = config;
    this.jwksBase = ConfigValidator.withoutTrailingSlash(config.jwksBaseUrl().orElse(config.url()));
    this.realms = Caffeine.newBuilder()
      .maximumSize(config.realmsMaxSize())
      .ticker(ticker)
      .expireAfterWrite(config.jwksRefreshInterval())
      .build();
    this.unknownRealms = Caffeine.newBuilder()
      .maximumSize(config.realmsMaxSize())
      .ticker(ticker)
      .expireAfterWrite(config.jwksMinRefetchInterval())
      .build();
    this.newRealmWindowStart = ticker.read();
  }

  /** The key that signed a token of this realm, or a failed future with a 401 (unknown key) or 503 (Keycloak down). */
  public Future<SigningKey> key(String realm, String keyId) {
    var keySet = realms.getIfPresent(realm);
    if (keySet != null) {
      var key = keySet.byKeyId().get(keyId);
      if (key != null) {
        return Future.succeededFuture(key);
      }
      if (ticker.read() - keySet.fetchedAtNanos() < config.jwksMinRefetchInterval().toNanos()) {
        return Future.failedFuture(SidecarError.unauthorized("token signed with an unknown key"));
      }
    } else if (unknownRealms.getIfPresent(realm) != null) {
      return Future.failedFuture(SidecarError.unauthorized("token of an unknown realm"));
    } else if (!inFlight.containsKey(realm) && !newRealmAllowed()) {
      return Future.failedFuture(SidecarError.unauthorized("too many unknown realms asked for; token refused"));
    }
    return fetch(realm).compose(fetched -> {
      var key = fetched.byKeyId().get(keyId);
      return key != null
        ? Future.succeededFuture(key)
        : Future.failedFuture(SidecarError.unauthorized("token signed with an unknown key"));
    });
  }

  /** Takes one of the window's fetches for a realm not yet known, if one is left. */
  private synchronized boolean newRealmAllowed() {
    long now = ticker.read();
    if (now - newRealmWindowStart >= config.jwksMinRefetchInterval().toNanos()) {
      newRealmWindowStart = now;
      newRealmFetches = 0;
    }
    if (newRealmFetches >= config.jwksNewRealmFetches()) {
      return false;
    }
    newRealmFetches++;
    return true;
  }

  private Future<KeySet> fetch(String realm) {
    var promise = Promise.<KeySet>promise();
    var existing = inFlight.putIfAbsent(realm, promise.future());
    if (existing != null) {
      return existing;
    }
    calls.send(client.getAbs(jwksBase + "/realms/" + realm + "/protocol/openid-connect/certs")
      .traceOperation(Tracing.OPERATION_KEYS), HttpRequest::send)
      .onComplete(result -> {
        inFlight.remove(realm);
        if (result.failed()) {
          promise.fail(SidecarError.keycloakUnavailable("cannot fetch realm keys: " + calls.describe(result.cause())));
          return;
        }
        var response = result.result();
        if (response.statusCode() == 404) {
          // an unknown realm: remembered apart, so tokens naming it are refused without asking again at once and
          // made-up names never push real realms' keys out
          unknownRealms.put(realm, Boolean.TRUE);
          promise.complete(new KeySet(Map.of(), ticker.read()));
        } else if (response.statusCode() != 200) {
          promise
            .fail(SidecarError.keycloakUnavailable("Keycloak answered " + response.statusCode() + " for realm keys"));
        } else {
          var keySet = parse(realm, response.bodyAsString());
          realms.put(realm, keySet);
          promise.complete(keySet);
        }
      });
    return promise.future();
  }

  private KeySet parse(String realm, String json) {
    var keys = new HashMap<String, SigningKey>();
    try {
      for (JsonWebKey jwk : new JsonWebKeySet(json).getJsonWebKeys()) {
        boolean signing = jwk.getUse() == null || "sig".equals(jwk.getUse());
        if (signing && jwk.getKeyId() != null && jwk instanceof PublicJsonWebKey publicJwk) {
          keys.put(jwk.getKeyId(), new SigningKey(publicJwk.getPublicKey(), jwk.getAlgorithm()));
        }
      }
    } catch (JoseException e) {
      LOGGER.warnf("Keycloak returned unreadable keys for realm %s: %s", realm, e.getMessage());
    }
    return new KeySet(Map.copyOf(keys), ticker.read());
  }
}
