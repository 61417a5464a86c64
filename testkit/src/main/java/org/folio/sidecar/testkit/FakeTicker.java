package org.folio.sidecar.testkit;

import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** Time that moves only when a test says so, as in Caffeine's own tests. */
public final class FakeTicker implements Ticker {

  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

  @Override
  public long read() {
    return nanos.get();
  }

  public void advance(Duration duration) {
    nanos.addAndGet(duration.toNanos());
  }
}
