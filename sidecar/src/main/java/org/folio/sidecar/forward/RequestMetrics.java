package org.folio.sidecar.forward;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Every request the sidecar routes, counted by direction, outcome and status code
 * ({@code sidecar_requests_total}), and the latency it adds to it (total less the time to the target's answer)
 * as a histogram with fixed buckets ({@code sidecar_requests_added_seconds}). Outcome is {@code forwarded} when
 * the target answered (its status, whatever it is), else {@code rejected} (the sidecar's own 4xx) or
 * {@code failed} (its own 5xx). No tenant, user, path or request id: a caller controls those, and each new
 * value would be a new series. The series alerts read exist at zero from start-up, so that a rate over them is
 * defined before the first failure and {@code absent()} can tell a broken scrape from a healthy sidecar.
 */
@Singleton
public class RequestMetrics {

  /** The sidecar's own answers an alert watches; any other status gets its series when it first occurs. */
  static final int[] WATCHED_STATUSES = {400, 401, 403, 404, 413, 500, 502, 503, 504};
  static final String FORWARDED = "forwarded";
  static final String REJECTED = "rejected";
  static final String FAILED = "failed";
  private static final List<String> OUTCOMES = List.of(FORWARDED, REJECTED, FAILED);
  private static final List<Exchange.Direction> DIRECTIONS = List.of(Exchange.Direction.values());
  private static final int STATUS_SLOTS = 1000;
  private static final Duration[] BUCKETS = {Duration.ofNanos(250_000), Duration.ofNanos(500_000),
    Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
    Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
    Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5)};

  private final MeterRegistry registry;
  private final Map<Exchange.Direction, Timer> added = new EnumMap<>(Exchange.Direction.class);
  /**
   * By direction, outcome and status code (three digits): an index, not a key built per request, since this runs
   * once per request on the event loop.
   */
  private final AtomicReferenceArray<Counter> counters = new AtomicReferenceArray<>(
    DIRECTIONS.size() * OUTCOMES.size() * STATUS_SLOTS);

  RequestMetrics(MeterRegistry registry) {
    this.registry = registry;
    for (var direction : Exchange.Direction.values()) {
      added.put(direction, Timer.builder("sidecar.requests.added")
        .description("latency the sidecar adds: total less the time to the target's answer")
        .tag("direction", direction.label()).serviceLevelObjectives(BUCKETS).register(registry));
      counter(direction, FORWARDED, 200);
      counter(direction, FORWARDED, 500);
      for (int status : WATCHED_STATUSES) {
        counter(direction, status < 500 ? REJECTED : FAILED, status);
      }
    }
  }

  /** Called once per request when its answer is complete; {@code now} as {@link System#nanoTime()}. */
  void record(Exchange exchange, int status, long now) {
    boolean answered = exchange.moduleAnsweredNanos != 0;
    var outcome = answered ? FORWARDED : status < 500 ? REJECTED : FAILED;
    counter(exchange.direction, outcome, status).increment();
    long total = now - exchange.startNanos;
    long module = answered ? exchange.moduleAnsweredNanos - exchange.moduleStartNanos : 0;
    Objects.requireNonNull(added.get(exchange.direction)).record(Math.max(0, total - module), TimeUnit.NANOSECONDS);
  }

  private Counter counter(Exchange.Direction direction, String outcome, int status) {
    boolean indexed = status >= 0 && status < STATUS_SLOTS;
    int slot = (DIRECTIONS.indexOf(direction) * OUTCOMES.size() + OUTCOMES.indexOf(outcome)) * STATUS_SLOTS + status;
    var counter = indexed ? counters.get(slot) : null;
    if (counter == null) {
      // the registry returns the one counter of these tags, so two threads racing here count into the same one
      counter = Counter.builder("sidecar.requests")
        .description("requests the sidecar routed, by direction, outcome and status code")
        .tag("direction", direction.label()).tag("outcome", outcome).tag("status", String.valueOf(status))
        .register(registry);
      if (indexed) {
        counters.set(slot, counter);
      }
    }
    return counter;
  }
}
