package org.folio.sidecar.time;

import com.github.benmanes.caffeine.cache.Ticker;
import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;

/**
 * The sidecar's two sources of time: a {@link Ticker} (monotonic nanoseconds: cache ages, refresh points) and a
 * {@link Clock} (wall time: token {@code exp}). Every cache and token check takes them from here, so tests
 * replace both with time they advance instead of waiting.
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
}
