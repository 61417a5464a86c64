package org.folio.sidecar.token;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * One live token per tenant, shared by every caller, whatever grant obtains it (service client, system user).
 * Concurrent misses share one Keycloak call; a token in use is renewed in the background once a share of its
 * lifetime has passed, and never handed out within a safety margin of its expiry. Never keyed on {@code exp}.
 */
final class SharedTokens {

  /**
   * When tokens are renewed and dropped. This sidecar's: renewed in the background once {@code refreshFraction} of
   * the lifetime has passed, dropped a safety margin before expiry. Upstream v3.0.18's (the legacy baseline): at
   * most 50 tenants, never renewed ahead, dropped {@code 25 s} before expiry (90 % of the lifetime when that is
   * under 30 s), so the first caller after that waits for a new one.
   */
  record Policy(long maxTenants, double refreshFraction, boolean upstream) {

    private static final long UPSTREAM_MARGIN = Duration.ofSeconds(25).toNanos();

    static Policy upstreamV3(long maxTenants) {
      return new Policy(maxTenants, 1, true);
    }

    long usableNanos(long lifetime) {
      if (upstream) {
        return lifetime > Duration.ofSeconds(30).toNanos() ? lifetime - UPSTREAM_MARGIN : lifetime * 9 / 10;
      }
      // never hand out a token that could expire in flight
      return lifetime - Math.min(Duration.ofSeconds(5).toNanos(), lifetime / 10);
    }

    long refreshAtNanos(long requestedAt, long lifetime) {
      return upstream ? Long.MAX_VALUE : requestedAt + (long) (lifetime * refreshFraction);
    }
  }

  /** A token and the times it must be renewed (in the background) and dropped (always). */
  private record SharedToken(String value, long acquiredAtNanos, long refreshAtNanos, long lifetimeNanos,
    AtomicBoolean refreshing) {
  }

  private final Function<String, Future<JsonObject>> obtain;
  private final Policy policy;
  private final MeterRegistry registry;
  private final String meterPrefix;
  private final Ticker ticker;
  private final AsyncCache<String, SharedToken> tokens;

  /**
   * {@code obtain} asks Keycloak for a tenant's token and yields the token endpoint's answer; meters are named
   * {@code <meterPrefix>.cached} and {@code <meterPrefix>.requests}.
   */
  SharedTokens(Function<String, Future<JsonObject>> obtain, Policy policy, MeterRegistry registry,
    String meterPrefix, Ticker ticker) {
    this.obtain = obtain;
    this.ticker = ticker;
    this.policy = policy;
    this.registry = registry;
    this.meterPrefix = meterPrefix;
    this.tokens = Caffeine.newBuilder()
      .maximumSize(policy.maxTenants())
      .ticker(ticker)
      .expireAfter(Expiry.<String, SharedToken>writing((tenant, token) -> Duration.ofNanos(token.lifetimeNanos())))
      .buildAsync();
    registry.gauge(meterPrefix + ".cached", tokens, cache -> cache.synchronous().estimatedSize());
  }

  /** The tenant's current token, acquiring one if there is none. */
  Future<String> token(String tenant) {
    var present = tokens.asMap().get(tenant);
    if (present != null && present.isDone() && !present.isCompletedExceptionally()) {
      var token = present.join();
      if (ticker.read() >= token.refreshAtNanos() && token.refreshing().compareAndSet(false, true)) {
        acquire(tenant, "refresh").onComplete(result -> {
          if (result.succeeded()) {
            tokens.put(tenant, CompletableFuture.completedFuture(result.result()));
          } else {
            token.refreshing().set(false);
          }
        });
      }
      return Future.succeededFuture(token.value());
    }
    return Future
      .fromCompletionStage(
        tokens.get(tenant, (t, executor) -> acquire(t, "acquire").toCompletionStage().toCompletableFuture()))
      .map(SharedToken::value);
  }

  void evict(String tenant) {
    tokens.synchronous().invalidate(tenant);
  }

  /**
   * Drops the tenant's token only if it is at least {@code minAgeNanos} old: a token Keycloak issued moments ago
   * was not refused for its age, so replacing it again would only let a refusing target drive Keycloak.
   */
  boolean evictIfOlderThan(String tenant, long minAgeNanos) {
    var present = tokens.asMap().get(tenant);
    if (present == null || !present.isDone() || present.isCompletedExceptionally()) {
      return false;
    }
    return ticker.read() - present.join().acquiredAtNanos() >= minAgeNanos && tokens.asMap().remove(tenant, present);
  }

  void evictAll() {
    tokens.synchronous().invalidateAll();
  }

  private Future<SharedToken> acquire(String tenant, String kind) {
    long requestedAt = ticker.read();
    // both outcomes registered together: a tenant whose token can never be had shows as failures, not silence
    var succeeded = requests(tenant, kind, "ok");
    var failed = requests(tenant, kind, "error");
    return obtain.apply(tenant).onFailure(error -> failed.increment()).map(body -> {
      long lifetime = Duration.ofSeconds(body.getLong("expires_in", 60L)).toNanos();
      succeeded.increment();
      return new SharedToken(body.getString("access_token"), requestedAt, policy.refreshAtNanos(requestedAt, lifetime),
        policy.usableNanos(lifetime) - (ticker.read() - requestedAt), new AtomicBoolean());
    });
  }

  private Counter requests(String tenant, String kind, String outcome) {
    return Counter.builder(meterPrefix + ".requests").description("token acquisitions from Keycloak, by outcome")
      .tag("tenant", tenant).tag("kind", kind).tag("outcome", outcome).register(registry);
  }
}
