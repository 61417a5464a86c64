package org.folio.sidecar.secret;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import org.folio.sidecar.error.Availability;
import org.folio.sidecar.error.SidecarError;
import org.jspecify.annotations.Nullable;

/**
 * A store's secrets kept, so no request calls the store: concurrent reads of a key share one call, a value is
 * re-read after its TTL (rotation) or when Keycloak refused it. A failing store never costs a working secret:
 * the old value stays in use until a reload succeeds, however long the store is down (upstream keeps secrets
 * for the process's life), and the reload is retried every failure TTL, not by every request. A key the store
 * does not have is remembered as missing for the failure TTL, so a tenant without a secret does not send every
 * egress call to the store. An unreachable store with nothing kept is asked again by the next caller.
 */
final class CachedSecrets implements SecretStore {

  private static final String NOT_FOUND = SidecarError.secretNotFound("").type();

  /** A value, or that the store does not have the key, and until when it counts as fresh. */
  private record Known(@Nullable String value, @Nullable SidecarError missing, long freshUntilNanos) {

    Future<String> answer() {
      return value != null ? Future.succeededFuture(value) : Future.failedFuture(missing);
    }
  }

  private final SecretStore store;
  private final Ticker ticker;
  private final long ttlNanos;
  private final long failureTtlNanos;
  private final Cache<String, Known> known;
  private final ConcurrentHashMap<String, Future<Known>> loading = new ConcurrentHashMap<>();
  private final Availability availability;

  CachedSecrets(SecretStore store, Duration ttl, Duration failureTtl, Ticker ticker) {
    this.store = store;
    this.ticker = ticker;
    this.ttlNanos = ttl.toNanos();
    this.failureTtlNanos = failureTtl.toNanos();
    // no expiry: a stale secret is the fallback while the store is down; the size only bounds memory
    this.known = Caffeine.newBuilder().maximumSize(10_000).build();
    this.availability = new Availability("The secret store is unreachable: %s; the last secret read of each key "
      + "stays in use, keys never read answer 503", "The secret store is reachable again after %d s", ticker);
  }

  @Override
  public Future<String> secret(String key) {
    var present = known.getIfPresent(key);
    if (present != null && ticker.read() - present.freshUntilNanos() < 0) {
      return present.answer();
    }
    return load(key).compose(Known::answer);
  }

  private Future<Known> load(String key) {
    var promise = Promise.<Known>promise();
    var running = loading.putIfAbsent(key, promise.future());
    if (running != null) {
      return running;
    }
    store.secret(key)
      .map(value -> {
        availability.up();
        return new Known(value, null, ticker.read() + ttlNanos);
      })
      .recover(error -> fallback(key, error))
      .onComplete(result -> {
        loading.remove(key, promise.future());
        if (result.succeeded()) {
          known.put(key, result.result());
        }
        promise.handle(result);
      });
    return promise.future();
  }

  private Future<Known> fallback(String key, Throwable error) {
    long retryAt = ticker.read() + failureTtlNanos;
    if (error instanceof SidecarError sidecarError && NOT_FOUND.equals(sidecarError.type())) {
      availability.up();
      return Future.succeededFuture(new Known(null, sidecarError, retryAt));
    }
    availability.down(String.valueOf(error.getMessage()));
    var last = known.getIfPresent(key);
    if (last != null && last.value() != null) {
      return Future.succeededFuture(new Known(last.value(), null, retryAt));
    }
    return Future.failedFuture(error);
  }

  @Override
  public void forget(String key) {
    known.invalidate(key);
  }
}
