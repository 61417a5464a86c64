package org.folio.sidecar.platform;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.function.Supplier;
import org.folio.sidecar.config.RetryConfig;
import org.jboss.logging.Logger;

/**
 * What the sidecar loads from the platform (routes, entitlements): loaded at start, retried with upstream's
 * backoff, and re-read every interval until {@link #stop()}. Start-up waits a bounded time for the first load
 * ({@link StartupLoads}), so the sidecar normally opens its port ready to serve; if a manager is down it opens anyway,
 * answers 503, and the reloads keep trying (upstream exits after its last retry).
 */
public final class PeriodicReload {

  private static final Logger LOGGER = Logger.getLogger(PeriodicReload.class);

  private final Vertx vertx;
  private final long timerId;

  private PeriodicReload(Vertx vertx, long timerId) {
    this.vertx = vertx;
    this.timerId = timerId;
  }

  /** Starts the reloads; start-up awaits the first load with the others ({@link StartupLoads}). */
  public static PeriodicReload start(Vertx vertx, RetryConfig retry, StartupLoads startup, Duration interval,
    Supplier<Future<?>> load, String what) {
    long timerId = vertx.setPeriodic(interval.toMillis(), id -> load.get()
      .onFailure(error -> LOGGER.warnf("Reloading %s failed (%s); the current one stays", what, error.getMessage())));
    var firstLoad = Promise.<Void>promise();
    attempt(vertx, retry, load, what, 0, retry.minDelay().toMillis(), firstLoad);
    startup.add(what, firstLoad.future());
    return new PeriodicReload(vertx, timerId);
  }

  public void stop() {
    vertx.cancelTimer(timerId);
  }

  private static void attempt(Vertx vertx, RetryConfig retry, Supplier<Future<?>> load, String what, int retries,
    long delayMillis, Promise<Void> done) {
    load.get().onSuccess(loaded -> done.tryComplete()).onFailure(error -> {
      if (retries >= retry.attempts()) {
        LOGGER.errorf("Loading %s failed %d times (%s); the periodic reload keeps trying", what, retries + 1,
          error.getMessage());
        done.tryFail(error);
        return;
      }
      LOGGER.warnf("Loading %s failed (%s); retrying in %d ms", what, error.getMessage(), delayMillis);
      long next = (long) Math.min((double) retry.maxDelay().toMillis(), delayMillis * retry.backoffFactor());
      vertx.setTimer(Math.max(1, delayMillis), id -> attempt(vertx, retry, load, what, retries + 1, next, done));
    });
  }
}
