package org.folio.sidecar.support;

import io.vertx.core.Vertx;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.folio.sidecar.time.Timers;

/**
 * The sidecar's wait deadlines in Quarkus tests: real Vert.x timers that a test can also end at once with
 * {@link #expireAll}, so "Keycloak did not answer in time" is a state the test sets, not seconds it waits for (and
 * the deadlines themselves stay as generous as in production). Replaces the default {@code Clocks} bean.
 */
@Singleton
public class TestTimers {

  private static final Set<Runnable> PENDING = ConcurrentHashMap.newKeySet();

  /** Ends every wait now running, each on the event loop that started it. */
  public static void expireAll() {
    List.copyOf(PENDING).forEach(Runnable::run);
  }

  @Produces
  @Singleton
  Timers timers(Vertx vertx) {
    return (delay, task) -> {
      var context = vertx.getOrCreateContext();
      var done = new AtomicBoolean();
      var expire = new Runnable[1];
      Runnable fire = () -> {
        if (done.compareAndSet(false, true)) {
          PENDING.remove(expire[0]);
          task.run();
        }
      };
      expire[0] = () -> context.runOnContext(ignored -> fire.run());
      PENDING.add(expire[0]);
      long id = vertx.setTimer(Math.max(1, delay.toMillis()), ignored -> fire.run());
      return () -> {
        done.set(true);
        PENDING.remove(expire[0]);
        vertx.cancelTimer(id);
      };
    };
  }
}
