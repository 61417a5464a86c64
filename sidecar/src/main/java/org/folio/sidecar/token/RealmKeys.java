package org.folio.sidecar.token;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.core.Vertx;
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
 * per KC_JWKS_MIN_REFETCH_INTERVAL, and concurrent misses share that one fetch; keys older than
 * KC_JWKS_REFRESH_INTERVAL are fetched again when a token needs them.
 *
 * <p>Realm names come from tokens not yet verified, so two kinds of realm never compete: a realm whose keys were
 * loaded once, or an entitled tenant's, is fetched whenever it needs to be; any other name is asked for within
 * budgets, at most KC_JWKS_NEW_REALM_FETCHES per KC_JWKS_MIN_REFETCH_INTERVAL in all and
 * KC_JWKS_NEW_REALM_FETCHES_PER_SOURCE of them for one caller address. Realms Keycloak does not know are
 * remembered apart from real ones, and tokens refused for naming them are counted in {@link UnknownRealmLog}.
 */
@Singleton
public class RealmKeys {

  private static final Logger LOGGER = Logger.getLogger(RealmKeys.class);

  /** A realm's signing keys by key id, with the time they were fetched; none when Keycloak does not know it. */
  record KeySet(Map<String, SigningKey> byKeyId, long fetchedAtNanos, boolean unknown) {
  }

  /** A public key and the algorithm Keycloak declared for it. */
  public record SigningKey(PublicKey key, String algorithm) {
  }

  /** The share of Keycloak's call slots ({@link CallLimit}) that fetches of realms not yet known take turns in. */
  private static final String NEW_REALMS = "(realms not yet known)";

  private final WebClient client;
  private final KeycloakCalls calls;
  private final KeycloakConfig config;
  private final String jwksBase;
  private final Cache<String, KeySet> realms;
  /** Realms Keycloak answered 404 for: refused without asking again until KC_JWKS_MIN_REFETCH_INTERVAL passes. */
  private final Cache<String, Boolean> unknownRealms;
  /** New-realm fetches per caller address in the current window, started at the address's first fetch. */
  private final Cache<String, int[]> fetchesBySource;
  private final EntitledRealms entitled;
  private final UnknownRealmLog unknownRealmLog;
  private final Ticker ticker;
  private final Map<String, Future<KeySet>> inFlight = new ConcurrentHashMap<>();
  private long newRealmWindowStart;
  private int newRealmFetches;

  RealmKeys(@Named("keycloak") WebClient client, KeycloakCalls calls, KeycloakConfig config, Ticker ticker,
    EntitledRealms entitled, Vertx vertx) {
    this.client = client;
    this.calls = calls;
    this.ticker = ticker;
    this.config = config;
    this.entitled = entitled;
    this.jwksBase = ConfigValidator.withoutTrailingSlash(config.jwksBaseUrl().orElse(config.url()));
    // no expiry: a realm loaded once stays known, its keys are refetched past KC_JWKS_REFRESH_INTERVAL on use
    this.realms = Caffeine.newBuilder()
      .maximumSize(config.realmsMaxSize())
      .ticker(ticker)
      .build();
    this.fetchesBySource = Caffeine.newBuilder()
      .maximumSize(config.jwksNewRealmSources())
      .ticker(ticker)
      .expireAfterWrite(config.jwksMinRefetchInterval())
      .build();
    this.unknownRealmLog = new UnknownRealmLog(ticker, config.unknownRealmLogInterval());
    // the count of a flood that has stopped is written too, not only when the next refusal comes
    vertx.setPeriodic(Math.max(1, config.unknownRealmLogInterval().toMillis()), unused -> unknownRealmLog.flush());
    this.unknownRealms = Caffeine.newBuilder()
      .maximumSize(config.realmsMaxSize())
      .ticker(ticker)
      .expireAfterWrite(config.jwksMinRefetchInterval())
      .build();
    this.newRealmWindowStart = ticker.read();
  }

  /**
   * The key that signed a token of this realm, or a failed future with a 401 (unknown key or realm, or a realm
   * beyond the budgets) or 503 (Keycloak down). {@code source} is the caller's address, for the per-source budget.
   */
  public Future<SigningKey> key(String realm, String keyId, String source) {
    var keySet = realms.getIfPresent(realm);
    if (keySet != null) {
      boolean fresh = ticker.read() - keySet.fetchedAtNanos() < config.jwksRefreshInterval().toNanos();
      var key = keySet.byKeyId().get(keyId);
      if (fresh && key != null) {
        return Future.succeededFuture(key);
      }
      if (fresh && ticker.read() - keySet.fetchedAtNanos() < config.jwksMinRefetchInterval().toNanos()) {
        return Future.failedFuture(SidecarError.unauthorized("token signed with an unknown key"));
      }
      // a realm loaded once: fetched again outside the budgets, however many made-up names are asked for
    } else if (unknownRealms.getIfPresent(realm) != null) {
      unknownRealmLog.unknownRealm();
      return Future.failedFuture(SidecarError.unauthorized("token of an unknown realm").counted());
    } else if (!inFlight.containsKey(realm) && !entitled.entitled(realm) && !newRealmAllowed(source)) {
      unknownRealmLog.overBudget();
      return Future.failedFuture(SidecarError.unauthorized("too many unknown realms asked for; token refused")
        .counted());
    }
    return fetch(realm).compose(fetched -> {
      if (fetched.unknown()) {
        unknownRealmLog.unknownRealm();
        return Future.failedFuture(SidecarError.unauthorized("token of an unknown realm").counted());
      }
      var key = fetched.byKeyId().get(keyId);
      return key != null
        ? Future.succeededFuture(key)
        : Future.failedFuture(SidecarError.unauthorized("token signed with an unknown key"));
    });
  }

  /** Takes one of the window's fetches for a realm not yet known, if one is left in all and for the source. */
  private synchronized boolean newRealmAllowed(String source) {
    long now = ticker.read();
    if (now - newRealmWindowStart >= config.jwksMinRefetchInterval().toNanos()) {
      newRealmWindowStart = now;
      newRealmFetches = 0;
    }
    var bySource = fetchesBySource.get(source, unused -> new int[1]);
    if (newRealmFetches >= config.jwksNewRealmFetches() || bySource[0] >= config.jwksNewRealmFetchesPerSource()) {
      return false;
    }
    newRealmFetches++;
    bySource[0]++;
    return true;
  }

  private Future<KeySet> fetch(String realm) {
    var promise = Promise.<KeySet>promise();
    var existing = inFlight.putIfAbsent(realm, promise.future());
    if (existing != null) {
      return existing;
    }
    // realms not yet known take their turns together, so made-up names cannot outnumber real tenants' shares
    var share = realms.getIfPresent(realm) != null || entitled.entitled(realm) ? realm : NEW_REALMS;
    long started = System.nanoTime();
    calls.send(share, null, client.getAbs(jwksBase + "/realms/" + realm + "/protocol/openid-connect/certs")
      .traceOperation(Tracing.OPERATION_KEYS), HttpRequest::send)
      .onComplete(result -> {
        inFlight.remove(realm);
        KeycloakCallLog.outcome("realm keys", realm, result, started);
        if (result.failed()) {
          promise.fail(SidecarError.keycloakUnavailable("cannot fetch realm keys: " + calls.describe(result.cause())));
          return;
        }
        var response = result.result();
        if (response.statusCode() == 404) {
          // an unknown realm: remembered apart, so tokens naming it are refused without asking again at once and
          // made-up names never push real realms' keys out
          unknownRealms.put(realm, Boolean.TRUE);
          // a realm removed from Keycloak (a deleted tenant) is no longer one loaded once
          realms.invalidate(realm);
          promise.complete(new KeySet(Map.of(), ticker.read(), true));
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
    return new KeySet(Map.copyOf(keys), ticker.read(), false);
  }
}
