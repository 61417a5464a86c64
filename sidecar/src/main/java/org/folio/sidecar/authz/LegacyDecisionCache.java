package org.folio.sidecar.authz;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineStatsCounter;
import io.vertx.core.Future;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.config.CacheBudget;
import org.folio.sidecar.config.CacheBudgets;
import org.folio.sidecar.token.VerifiedToken;
import org.jspecify.annotations.Nullable;

/**
 * Upstream v3.0.18's decision cache, reproduced as the baseline for comparisons: the key contains the token's
 * {@code exp} ({@code permission#tenant[#user_id][#sid]#exp}), so every token refresh misses; grants only;
 * at most KC_AUTHORIZATION_CACHE_MAX_SIZE entries, each living until {@code exp} minus the offset; no
 * sharing of concurrent misses; logout scans every key.
 */
public final class LegacyDecisionCache implements AuthorizationCache {

  private static final Future<Decision> PERMIT = Future.succeededFuture(Decision.PERMIT);

  private final AuthorizationDecider keycloak;
  private final Cache<String, Long> cache;
  private final CaffeineStatsCounter stats;
  private final long offsetMillis;
  private final Clock clock;

  public LegacyDecisionCache(AuthorizationDecider keycloak, AuthzCacheConfig config, MeterRegistry registry,
    Ticker ticker, Clock clock) {
    this.keycloak = keycloak;
    this.clock = clock;
    this.offsetMillis = config.legacyTtlOffset();
    this.stats = new CaffeineStatsCounter(registry, "sidecar.authz.decisions");
    var budget = CacheBudgets.decisions(config);
    this.cache = budget.<String, Long>apply(Caffeine.newBuilder(),
      (key, ttl) -> CacheBudgets.DECISION_OVERHEAD + CacheBudget.bytesOf(key))
      .ticker(ticker)
      .expireAfter(Expiry.<String, Long>creating((key, ttlMillis) -> Duration.ofMillis(ttlMillis)))
      .recordStats(() -> stats)
      .build();
    stats.registerSizeMetric(cache);
    budget.gauge(registry, cache);
  }

  @Override
  public Future<Decision> decide(AuthorizationRequest request) {
    var token = request.token();
    var key = new StringBuilder(request.permission()).append('#').append(request.tenant());
    if (token.userId() != null) {
      key.append('#').append(token.userId());
    } else {
      // the one change to upstream's key: without it another client's token expiring in the same second would
      // reuse the module-access client's grant (its weakness 1); a baseline must not be a way in
      key.append("#azp:").append(token.clientId());
    }
    if (token.sessionId() != null) {
      key.append('#').append(token.sessionId());
    }
    var cacheKey = key.append('#').append(token.expiresAtSeconds()).toString();
    if (cache.getIfPresent(cacheKey) != null) {
      DecisionLog.log(DecisionLog.Reason.HIT_PERMIT, request);
      return PERMIT;
    }
    DecisionLog.log(DecisionLog.Reason.MISS, request);
    return keycloak.decide(request).onSuccess(decision -> {
      long ttl = token.expiresAtSeconds() * 1000 - clock.millis() - offsetMillis;
      if (decision == Decision.PERMIT && ttl > 0) {
        cache.put(cacheKey, ttl);
      }
    });
  }

  @Override
  public void sessionEnded(String tenant, String sessionId) {
    removeKeysContaining(sessionId);
  }

  @Override
  public int userLoggedOut(String tenant, String userId, long atEpochMillis) {
    return removeKeysContaining(userId);
  }

  /** Upstream remembers no ended session: its token is let through wherever Keycloak is not asked. */
  @Override
  public boolean sessionEnded(VerifiedToken token) {
    return false;
  }

  @Override
  public int invalidateSession(String tenant, String sessionId) {
    return removeKeysContaining(sessionId);
  }

  @Override
  public int invalidateUser(String tenant, String userId) {
    return removeKeysContaining(userId);
  }

  @Override
  public int invalidateTenant(String tenant) {
    return removeKeysContaining("#" + tenant);
  }

  @Override
  public int invalidateAll() {
    int size = cache.asMap().size();
    cache.invalidateAll();
    return size;
  }

  /** Upstream's string keys have no index to look a user or session up by: the admin API says so. */
  @Override
  public Optional<CacheLookup> lookup(String tenant, @Nullable String userId, @Nullable String sessionId, int limit) {
    return Optional.empty();
  }

  private int removeKeysContaining(String part) {
    var keys = cache.asMap().keySet().stream().filter(key -> key.contains(part)).toList();
    cache.invalidateAll(keys);
    return keys.size();
  }
}
