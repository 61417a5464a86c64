package org.folio.sidecar.authz;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineStatsCounter;
import io.vertx.core.Future;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.error.SidecarError;

/**
 * Decisions cached per {@link DecisionKey}, so a refreshed token hits. Concurrent misses of one key share one
 * Keycloak call; grants in use are re-checked in the background before they expire; while Keycloak is
 * unreachable, grants keep serving up to a maximum staleness. Secondary indexes (session, user, tenant) let
 * a logout or a tenant change drop exactly its entries without scanning the cache.
 */
public final class DecisionCache implements AuthorizationCache {

  private static final Future<Decision> PERMIT = Future.succeededFuture(Decision.PERMIT);
  private static final Future<Decision> DENY = Future.succeededFuture(Decision.DENY);

  /** A decision and when Keycloak made it; {@code refreshing} keeps background re-checks to one at a time. */
  record Cached(Decision decision, long decidedAtNanos, AtomicBoolean refreshing) {

    static Cached of(Decision decision) {
      return new Cached(decision, System.nanoTime(), new AtomicBoolean());
    }
  }

  record SessionRef(String tenant, String sessionId) {
  }

  record UserRef(String tenant, String userId) {
  }

  private final AuthorizationDecider keycloak;
  private final AsyncCache<DecisionKey, Cached> cache;
  private final CaffeineStatsCounter stats;
  private final long refreshAfterNanos;
  private final long allowTtlNanos;
  private final Map<SessionRef, Set<DecisionKey>> bySession = new ConcurrentHashMap<>();
  private final Map<UserRef, Set<DecisionKey>> byUser = new ConcurrentHashMap<>();
  private final Map<String, Set<DecisionKey>> byTenant = new ConcurrentHashMap<>();
  private final Counter staleServed;
  private final Counter refreshes;

  public DecisionCache(AuthorizationDecider keycloak, AuthzCacheConfig config, MeterRegistry registry) {
    this.keycloak = keycloak;
    this.refreshAfterNanos = config.refreshAfter().toNanos();
    this.allowTtlNanos = config.allowTtl().toNanos();
    long allowLifetime = allowTtlNanos + config.maxStaleness().toNanos();
    long denyLifetime = config.denyTtl().toNanos();
    this.stats = new CaffeineStatsCounter(registry, "sidecar.authz.decisions");
    this.cache = Caffeine.newBuilder()
      .maximumSize(config.maxSize())
      .expireAfter(Expiry.<DecisionKey, Cached>writing(
        (key, cached) -> java.time.Duration.ofNanos(lifetime(cached.decision(), allowLifetime, denyLifetime))))
      .evictionListener(this::unindex)
      .recordStats(() -> stats)
      .buildAsync();
    stats.registerSizeMetric(cache.synchronous());
    this.staleServed = Counter.builder("sidecar.authz.decisions.stale.served")
      .description("grants served past their TTL because Keycloak was unreachable").register(registry);
    this.refreshes = Counter.builder("sidecar.authz.decisions.refreshes")
      .description("background re-checks of grants in use").register(registry);
  }

  private static long lifetime(Decision decision, long allowLifetime, long denyLifetime) {
    return switch (decision) {
      case PERMIT -> allowLifetime;
      case DENY -> denyLifetime;
      // Keycloak refused the token itself: nothing to remember, the next token may be fine
      case UNAUTHENTICATED -> 0;
    };
  }

  @Override
  public Future<Decision> decide(AuthorizationRequest request) {
    var key = DecisionKey.of(request.tenant(), request.permission(), request.token());
    var present = cache.asMap().get(key);
    if (present != null && present.isDone() && !present.isCompletedExceptionally()) {
      var cached = present.join();
      long age = System.nanoTime() - cached.decidedAtNanos();
      if (cached.decision() != Decision.PERMIT) {
        stats.recordHits(1);
        return cached.decision() == Decision.DENY ? DENY : Future.succeededFuture(cached.decision());
      }
      if (age < refreshAfterNanos) {
        stats.recordHits(1);
        return PERMIT;
      }
      if (age < allowTtlNanos) {
        stats.recordHits(1);
        refreshInBackground(key, cached, request);
        return PERMIT;
      }
      return recheckStale(key, request);
    }
    return Future.fromCompletionStage(cache.get(key, (k, executor) -> load(k, request)))
      .map(Cached::decision);
  }

  private CompletableFuture<Cached> load(DecisionKey key, AuthorizationRequest request) {
    return keycloak.decide(request)
      .map(decision -> {
        index(key);
        return Cached.of(decision);
      })
      .toCompletionStage().toCompletableFuture();
  }

  private void refreshInBackground(DecisionKey key, Cached cached, AuthorizationRequest request) {
    if (!cached.refreshing().compareAndSet(false, true)) {
      return;
    }
    refreshes.increment();
    keycloak.decide(request).onComplete(result -> {
      if (result.succeeded()) {
        cache.put(key, CompletableFuture.completedFuture(Cached.of(result.result())));
      } else {
        // keep serving the grant; the next request past refresh-after tries again
        cached.refreshing().set(false);
      }
    });
  }

  /** A grant past its TTL: ask again; if Keycloak cannot answer, the grant serves until its staleness runs out. */
  private Future<Decision> recheckStale(DecisionKey key, AuthorizationRequest request) {
    stats.recordMisses(1);
    return keycloak.decide(request).transform(result -> {
      if (result.succeeded()) {
        cache.put(key, CompletableFuture.completedFuture(Cached.of(result.result())));
        return Future.succeededFuture(result.result());
      }
      if (result.cause() instanceof SidecarError error && error.status() == 503) {
        staleServed.increment();
        return PERMIT;
      }
      return Future.failedFuture(result.cause());
    });
  }

  private void index(DecisionKey key) {
    byTenant.computeIfAbsent(key.tenant(), t -> ConcurrentHashMap.newKeySet()).add(key);
    if (key.sessionId() != null) {
      bySession.computeIfAbsent(new SessionRef(key.tenant(), key.sessionId()), s -> ConcurrentHashMap.newKeySet()).add(key);
    }
    if (key.userId() != null) {
      byUser.computeIfAbsent(new UserRef(key.tenant(), key.userId()), u -> ConcurrentHashMap.newKeySet()).add(key);
    }
  }

  private void unindex(DecisionKey key, Object value, com.github.benmanes.caffeine.cache.RemovalCause cause) {
    if (key == null) {
      return;
    }
    removeFrom(byTenant, key.tenant(), key);
    if (key.sessionId() != null) {
      removeFrom(bySession, new SessionRef(key.tenant(), key.sessionId()), key);
    }
    if (key.userId() != null) {
      removeFrom(byUser, new UserRef(key.tenant(), key.userId()), key);
    }
  }

  private static <K> void removeFrom(Map<K, Set<DecisionKey>> index, K indexKey, DecisionKey key) {
    index.computeIfPresent(indexKey, (k, keys) -> {
      keys.remove(key);
      return keys.isEmpty() ? null : keys;
    });
  }

  @Override
  public int invalidateSession(String tenant, String sessionId) {
    return invalidate(bySession.remove(new SessionRef(tenant, sessionId)));
  }

  @Override
  public int invalidateUser(String tenant, String userId) {
    return invalidate(byUser.remove(new UserRef(tenant, userId)));
  }

  @Override
  public int invalidateTenant(String tenant) {
    return invalidate(byTenant.remove(tenant));
  }

  private int invalidate(Set<DecisionKey> keys) {
    if (keys == null) {
      return 0;
    }
    cache.synchronous().invalidateAll(keys);
    return keys.size();
  }
}
