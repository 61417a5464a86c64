package org.folio.sidecar.time;

import com.github.benmanes.caffeine.cache.Ticker;
import io.quarkus.arc.DefaultBean;
import io.vertx.core.Vertx;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;

/**
 * The sidecar's sources of time: a {@link Ticker} (monotonic nanoseconds: cache ages, refresh points), a
 * {@link Clock} (wall time: token {@code exp}) and {@link Timers} (deadlines of a wait). Every cache and token
 * check takes them from here, so tests replace them with time they advance instead of waiting.
 */
@Singleton
public class Clocks {

  @Produces
  @Singleton
  @DefaultBean
  Ticker ticker() {
    return Ticker.systemTicker();
  }

  @Produces
  @Singleton
  @DefaultBean
  Clock clock() {
    return Clock.systemUTC();
  }

  @Produces
  @Singleton
  @DefaultBean
  Timers timers(Vertx vertx) {
    return (delay, task) -> {
      long id = vertx.setTimer(Math.max(1, delay.toMillis()), ignored -> task.run());
      return () -> vertx.cancelTimer(id);
    };
  }
}
