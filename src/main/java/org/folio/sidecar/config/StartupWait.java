package org.folio.sidecar.config;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Start-up waits a bounded time for what the sidecar loads from the platform (routes, entitlements), so it
 * normally opens its port ready to serve; if a manager is down it opens anyway, answers 503 and keeps retrying.
 */
public final class StartupWait {

  private static final Logger LOGGER = Logger.getLogger(StartupWait.class);
  private static final long WAIT_SECONDS = 10;

  private StartupWait() {
  }

  /**
   * Runs {@code load} until it succeeds, at most {@code 1 + RETRY_ATTEMPTS} times with upstream's backoff, and
   * waits a bounded time for the first success. Upstream exits after the last attempt; here the periodic
   * reload of the caller keeps trying, and readiness stays DOWN meanwhile.
   */
  public static void loadWithRetry(Vertx vertx, RetryConfig retry, Supplier<Future<?>> load, String what) {
    var firstLoad = Promise.<Void>promise();
    attempt(vertx, retry, load, what, 0, retry.minDelay().toMillis(), firstLoad);
    awaitFirst(firstLoad.future(), what);
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
      long next = (long) Math.min(retry.maxDelay().toMillis(), delayMillis * retry.backoffFactor());
      vertx.setTimer(Math.max(1, delayMillis), id -> attempt(vertx, retry, load, what, retries + 1, next, done));
    });
  }

  private static void awaitFirst(Future<Void> firstLoad, String what) {
    try {
      firstLoad.toCompletionStage().toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      LOGGER.warnf("Starting without %s after %d s; requests get 503 until they load", what, WAIT_SECONDS);
    } catch (ExecutionException e) {
      LOGGER.warnf("Starting without %s: %s", what, e.getCause().getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
