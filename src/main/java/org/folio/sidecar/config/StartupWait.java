package org.folio.sidecar.config;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.function.Supplier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
   * Runs {@code load} until it succeeds (backoff 1 s doubling to 60 s) and waits a bounded time for the first
   * success; later failures are the loader's to report.
   */
  public static void loadWithRetry(Vertx vertx, Supplier<Future<?>> load, String what) {
    var firstLoad = Promise.<Void>promise();
    retry(vertx, load, what, 1_000, firstLoad);
    awaitFirst(firstLoad.future(), what);
  }

  private static void retry(Vertx vertx, Supplier<Future<?>> load, String what, long delayMillis, Promise<Void> done) {
    load.get().onSuccess(loaded -> done.tryComplete()).onFailure(error -> {
      LOGGER.warnf("Loading %s failed (%s); retrying in %d ms", what, error.getMessage(), delayMillis);
      vertx.setTimer(delayMillis, id -> retry(vertx, load, what, Math.min(delayMillis * 2, 60_000), done));
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
