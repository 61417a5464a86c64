package org.folio.sidecar.load.ab;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * UMA calls per second in the last third of a workload, when every cache has met every key it will see:
 * what a long-running sidecar costs Keycloak, apart from the one-off cost of a cold cache. Samples a counter
 * every second while the stub modules show traffic.
 */
final class SteadyState {

  private record Sample(long umaCalls, long moduleRequests) {
  }

  /**
   * UMA calls per second over the window from {@code fromSecond} to {@code toSecond} of the workload, and the calls
   * of each second of the workload (for the report's chart).
   */
  record Window(double umaPerSecond, int fromSecond, int toSecond, long[] umaEachSecond) {
    static final Window NONE = new Window(Double.NaN, 0, 0, new long[0]);

    /**
     * From {@code second} of the workload to its end: the mean UMA rate and the highest rate over any 10
     * consecutive seconds, what Keycloak must be sized for. NaN when fewer than 10 seconds are left.
     */
    Rates ratesFrom(int second) {
      int from = Math.max(0, second);
      if (umaEachSecond.length - from < 10) {
        return new Rates(from, Double.NaN, Double.NaN);
      }
      long sum = 0;
      long window = 0;
      long peak = 0;
      for (int i = from; i < umaEachSecond.length; i++) {
        sum += umaEachSecond[i];
        window += umaEachSecond[i] - (i - from >= 10 ? umaEachSecond[i - 10] : 0);
        if (i - from >= 9) {
          peak = Math.max(peak, window);
        }
      }
      return new Rates(from, (double) sum / (umaEachSecond.length - from), peak / 10.0);
    }
  }

  /** UMA calls per second from {@code fromSecond} on: the mean and the peak over 10 s. */
  record Rates(int fromSecond, double mean, double peakTenSeconds) {
  }

  private final List<Sample> samples = new ArrayList<>();
  private final Thread sampler;

  private SteadyState(LongSupplier umaCalls, LongSupplier moduleRequests) {
    sampler = Thread.ofPlatform().daemon().name("steady-state").start(() -> {
      while (true) {
        synchronized (samples) {
          samples.add(new Sample(umaCalls.getAsLong(), moduleRequests.getAsLong()));
        }
        try {
          Thread.sleep(1000);
        } catch (InterruptedException e) {
          return;
        }
      }
    });
  }

  static SteadyState sample(LongSupplier umaCalls, LongSupplier moduleRequests) {
    return new SteadyState(umaCalls, moduleRequests);
  }

  /** Stops sampling; returns UMA calls per second over the last third of the seconds that had traffic. */
  Window stop() {
    sampler.interrupt();
    synchronized (samples) {
      int first = -1;
      int last = -1;
      for (int i = 1; i < samples.size(); i++) {
        if (samples.get(i).moduleRequests() > samples.get(i - 1).moduleRequests()) {
          first = first < 0 ? i - 1 : first;
          last = i;
        }
      }
      if (first < 0 || last - first < 3) {
        return Window.NONE;
      }
      int from = last - (last - first) / 3;
      var eachSecond = new long[last - first];
      for (int i = first + 1; i <= last; i++) {
        eachSecond[i - first - 1] = samples.get(i).umaCalls() - samples.get(i - 1).umaCalls();
      }
      return new Window((double) (samples.get(last).umaCalls() - samples.get(from).umaCalls()) / (last - from),
        from - first, last - first, eachSecond);
    }
  }
}
