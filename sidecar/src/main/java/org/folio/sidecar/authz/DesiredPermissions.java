package org.folio.sidecar.authz;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineStatsCounter;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonArray;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Optional;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.config.CacheBudget;
import org.folio.sidecar.config.CacheBudgets;
import org.folio.sidecar.config.ConfigValidator;
import org.folio.sidecar.config.UsersConfig;
import org.folio.sidecar.platform.PlatformClient;

/**
 * Which of an endpoint's desired permissions a user holds, from mod-users-keycloak, as upstream fills
 * {@code x-okapi-permissions}. Upstream asked on every request (about 50 ms each; one user was resolved 17k
 * times in 30 minutes of check-in/out); here answers are reused per (tenant, user, desired set) for a short
 * TTL, concurrent misses share one call, and a user's logout drops them. A failed lookup leaves the header
 * unset, as upstream, and is not remembered. In the legacy baseline every request asks, as upstream v3.0.18 and
 * v4.0.3 do.
 */
@Singleton
public class DesiredPermissions {

  /** One lookup: the desired names are kept in the endpoint's order, so equal endpoints share a key. */
  record Key(String tenant, String userId, List<String> desired) {
  }

  private static long estimate(Key key, Optional<String> header) {
    long bytes = CacheBudgets.DESIRED_PERMISSIONS_OVERHEAD + CacheBudget.bytesOf(key.tenant())
      + CacheBudget.bytesOf(key.userId()) + CacheBudget.bytesOf(header.orElse(""));
    for (var name : key.desired()) {
      bytes += 8 + CacheBudget.bytesOf(name);
    }
    return bytes;
  }

  private final PlatformClient platform;
  private final String baseUrl;
  private final AsyncCache<Key, Optional<String>> cache;
  private final boolean uncached;

  DesiredPermissions(PlatformClient platform, UsersConfig config, AuthzCacheConfig authzCache, MeterRegistry registry,
    Ticker ticker) {
    this.platform = platform;
    this.uncached = authzCache.mode() == AuthzCacheConfig.Mode.LEGACY;
    this.baseUrl = ConfigValidator.withoutTrailingSlash(config.keycloakUrl());
    var stats = new CaffeineStatsCounter(registry, "sidecar.desired.permissions");
    var budget = CacheBudgets.desiredPermissions(config);
    this.cache = budget.<Key, Optional<String>>apply(Caffeine.newBuilder(), DesiredPermissions::estimate)
      .ticker(ticker)
      .expireAfterWrite(config.permissionsCacheTtl())
      .recordStats(() -> stats)
      .buildAsync();
    stats.registerSizeMetric(cache.synchronous());
    budget.gauge(registry, cache.synchronous());
  }

  /** The {@code x-okapi-permissions} value (a JSON array) for the user, or empty when it cannot be told. */
  public Future<Optional<String>> header(String tenant, String userId, List<String> desired) {
    var key = new Key(tenant, userId, desired);
    if (uncached) {
      return load(key);
    }
    return Future
      .fromCompletionStage(cache.get(key, (k, executor) -> load(k).toCompletionStage().toCompletableFuture()))
      .onSuccess(value -> {
        if (value.isEmpty()) {
          // an error is not an answer: ask again next time
          cache.synchronous().invalidate(key);
        }
      });
  }

  private Future<Optional<String>> load(Key key) {
    var query = MultiMap.caseInsensitiveMultiMap();
    key.desired().forEach(permission -> query.add("desiredPermissions", permission));
    return platform
      .get("mod-users-keycloak", key.tenant(), baseUrl + "/users-keycloak/users/" + key.userId() + "/permissions",
        query)
      .map(body -> Optional.of(body.getJsonArray("permissions", new JsonArray()).encode()))
      .otherwise(Optional.empty());
  }

  /** Drops a user's answers in a tenant (logout, permission change); the cache is small, so a scan is fine. */
  public void invalidateUser(String tenant, String userId) {
    cache.synchronous().asMap().keySet().removeIf(key -> key.tenant().equals(tenant) && key.userId().equals(userId));
  }

  public void invalidateTenant(String tenant) {
    cache.synchronous().asMap().keySet().removeIf(key -> key.tenant().equals(tenant));
  }
}
