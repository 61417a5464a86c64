package org.folio.sidecar.secret;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import io.vertx.core.Future;
import java.time.Duration;

/**
 * A store's secrets kept for a while, so no request calls the store: concurrent reads of a key share one call,
 * failures are not kept (the next caller asks again), a value is re-read after its TTL (rotation) or when
 * Keycloak refused it.
 */
final class CachedSecrets implements SecretStore {

  /** A value and when it was read; its age is checked on every use, against the injected ticker. */
  private record Timed(String value, long readAtNanos) {
  }

  private final SecretStore store;
  private final Ticker ticker;
  private final long ttlNanos;
  private final AsyncCache<String, Timed> values;

  CachedSecrets(SecretStore store, Duration ttl, Ticker ticker) {
    this.store = store;
    this.ticker = ticker;
    this.ttlNanos = ttl.toNanos();
    // Caffeine's own expiry only bounds memory; freshness is decided by the read time above
    this.values = Caffeine.newBuilder().ticker(ticker).expireAfterWrite(ttl.multipliedBy(2)).maximumSize(10_000)
      .buildAsync();
  }

  @Override
  public Future<String> secret(String key) {
    var present = values.asMap().get(key);
    if (present != null && present.isDone() && !present.isCompletedExceptionally()) {
      var timed = present.join();
      if (ticker.read() - timed.readAtNanos() < ttlNanos) {
        return Future.succeededFuture(timed.value());
      }
      values.asMap().remove(key, present);
    }
    return Future.fromCompletionStage(values.get(key, (k, executor) -> store.secret(k)
      .map(value -> new Timed(value, ticker.read())).toCompletionStage().toCompletableFuture())).map(Timed::value);
  }

  @Override
  public void forget(String key) {
    values.synchronous().invalidate(key);
  }
}
