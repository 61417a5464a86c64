package org.folio.sidecar.platform;

import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Future;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.ObserverMethod;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.folio.sidecar.config.PlatformConfig;
import org.jboss.logging.Logger;

/**
 * The first loads from the platform (routes, entitlements), awaited together after every other start-up observer
 * has run: their network round trips overlap with each other and with the rest of the start (Kafka clients,
 * probes) instead of adding up, and the whole wait is bounded by SIDECAR_STARTUP_WAIT, not once per load. (On two
 * cores this did not shorten a normal start, measured interleaved: the overlapped work needs the same CPU.)
 */
@Singleton
public class StartupLoads {

  private static final Logger LOGGER = Logger.getLogger(StartupLoads.class);

  private record Pending(String what, Future<Void> firstLoad) {
  }

  private final PlatformConfig config;
  private final List<Pending> pending = new CopyOnWriteArrayList<>();

  StartupLoads(PlatformConfig config) {
    this.config = config;
  }

  /** A first load start-up waits for; {@code what} names it in the warning if it does not come in time. */
  void add(String what, Future<Void> firstLoad) {
    pending.add(new Pending(what, firstLoad));
  }

  // after every other observer (a higher priority value runs later), so they all run while the loads are in flight
  void await(@Observes @Priority(ObserverMethod.DEFAULT_PRIORITY + 1000) StartupEvent event) {
    long deadline = System.nanoTime() + config.startupWait().toNanos();
    for (var load : pending) {
      try {
        load.firstLoad().toCompletionStage().toCompletableFuture()
          .get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        LOGGER.warnf("Starting without %s after %d ms; requests get 503 until they load", load.what(),
          config.startupWait().toMillis());
      } catch (ExecutionException e) {
        LOGGER.warnf("Starting without %s: %s", load.what(), (e.getCause() == null ? e : e.getCause()).getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    pending.clear();
  }
}
