package org.folio.sidecar.config;

import io.vertx.core.Future;
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

  public static void awaitFirst(Future<Void> firstLoad, String what) {
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
