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

  private final SecretStore store;
  private final AsyncCache<String, String> values;

  CachedSecrets(SecretStore store, Duration ttl, Ticker ticker) {
    this.store = store;
    this.values = Caffeine.newBuilder().ticker(ticker).expireAfterWrite(ttl).maximumSize(10_000).buildAsync();
  }

  @Override
  public Future<String> secret(String key) {
    return Future.fromCompletionStage(values.get(key, (k, executor) ->
      store.secret(k).toCompletionStage().toCompletableFuture()));
  }

  @Override
  public void forget(String key) {
    values.synchronous().invalidate(key);
  }
}
