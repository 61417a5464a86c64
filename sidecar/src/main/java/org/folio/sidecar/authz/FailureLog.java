package org.folio.sidecar.authz;

import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * One WARN line per cause per interval: a Keycloak that fails every decision (down, slow, misconfigured) must say
 * why in the log without writing a line per request. The causes are a fixed set of outcomes, so this map stays
 * small; the lines suppressed meanwhile are counted, and every failure is in the decision metric.
 */
final class FailureLog {

  private record Window(AtomicLong openedAt, AtomicLong suppressed) {
  }

  private final Ticker ticker;
  private final long intervalNanos;
  private final Consumer<String> warn;
  private final Map<String, Window> windows = new ConcurrentHashMap<>();

  FailureLog(Ticker ticker, Duration interval, Consumer<String> warn) {
    this.ticker = ticker;
    this.intervalNanos = interval.toNanos();
    this.warn = warn;
  }

  /** Writes {@code line} unless a line of {@code cause} was written less than an interval ago. */
  void warn(String cause, String line) {
    long now = ticker.read();
    var window = windows.computeIfAbsent(cause, c -> new Window(new AtomicLong(now - intervalNanos),
      new AtomicLong()));
    long opened = window.openedAt().get();
    if (now - opened < intervalNanos || !window.openedAt().compareAndSet(opened, now)) {
      window.suppressed().incrementAndGet();
      return;
    }
    long suppressed = window.suppressed().getAndSet(0);
    warn.accept(suppressed == 0 ? line : line + " (" + suppressed + " more since the last line of this cause)");
  }
}
