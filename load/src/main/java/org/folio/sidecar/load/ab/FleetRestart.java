package org.folio.sidecar.load.ab;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.folio.sidecar.load.fleet.SidecarFleet;
import org.folio.sidecar.testkit.CountingHop;
import org.jspecify.annotations.Nullable;

/**
 * {@code --fleet-restart}: what Keycloak sees when a platform upgrade restarts every sidecar at once. In each
 * optimized run the whole fleet is stopped and started again on the same ports with empty caches while Gatling
 * keeps sending ({@link SidecarFleet#restartAll}), sampled each second (UMA, token and key calls at the hop,
 * Keycloak's CPU). {@link FleetRestartReport} writes the report's section.
 */
final class FleetRestart {

  /** How long the restarted fleet may take to be ready again: as long as a first start. */
  static final Duration READY_TIMEOUT = Duration.ofSeconds(240);
  /**
   * The restarted run's workload runs this much longer than the others, so that the minute after the fleet is
   * ready again is measured even where six sidecars starting together take two minutes (a loaded 2-core machine).
   */
  static final int EXTRA_SECONDS = 180;

  /** The counters at one instant: Keycloak calls at the hop and Keycloak's CPU seconds since the run's start. */
  record Sample(long epochMillis, int uma, int tokens, int keys, double keycloakCpuSeconds, long moduleRequests) {
  }

  /**
   * One optimized run's samples, from before its workload to its end. {@code workloadStart} is the epoch
   * millisecond of the sample before the first module request; {@code stopped} and {@code ready} when the fleet
   * was sent SIGTERM and when every new sidecar answered ready (0 when this run was not restarted); {@code gatling}
   * the run's Gatling report, whose per-second series give the errors and latency around the restart;
   * {@code workloadSeconds} how long this run's workload was.
   */
  record Timeline(String run, List<Sample> samples, long workloadStart, long stopped, long ready, String failure,
    Path gatling, int workloadSeconds) {

    boolean restarted() {
      return stopped > 0;
    }
  }

  /**
   * The runs of one A/B run: off unless {@code --fleet-restart}. Every optimized run is restarted, at the workload's
   * midpoint, or later where the midpoint comes before 20 s past the first refresh period (the quick profile), so
   * that the steady mean before the stop is the run's own; {@code firstRunEnv} (from {@code --optimized-env-1})
   * adds variables to the first optimized run's fleet only, so the two restarts compare a setting.
   */
  static final class Runs {
    private final boolean enabled;
    private final int restartSecond;
    private final Map<String, String> firstRunEnv;
    private final List<Timeline> timelines = new ArrayList<>();

    Runs(boolean enabled, AbRun.Profile profile, Map<String, String> firstRunEnv) {
      this.enabled = enabled;
      long refreshSecond = profile.scale().scaled(FleetRestartReport.refreshAfter()).toSeconds();
      this.restartSecond = (int) Math.max(profile.durationSeconds() / 2, refreshSecond + 20);
      this.firstRunEnv = firstRunEnv;
    }

    /** Samples the run if it is an optimized one (a no-op otherwise) and restarts its fleet. */
    FleetRestart watch(String run, String variant, SidecarFleet fleet, CountingHop hop, ProcessHandle keycloak,
      LongSupplier moduleRequests, int workloadSeconds) {
      boolean sampled = enabled && variant.equals("optimized");
      return new FleetRestart(this, run, sampled, fleet, hop, keycloak, moduleRequests,
        sampled ? workloadSeconds + EXTRA_SECONDS : workloadSeconds);
    }

    /** The variables the run's fleet gets besides the variant's: {@code --optimized-env-1}'s for the first. */
    Map<String, String> environment(String run) {
      return enabled && (run.equals("optimized") || run.equals("optimized, run 1")) ? firstRunEnv : Map.of();
    }

    boolean enabled() {
      return enabled;
    }

    /** The Gatling properties of a run: a restarted run's workload is {@link #EXTRA_SECONDS} longer. */
    Map<String, String> workload(String variant, Map<String, String> workload, int workloadSeconds) {
      if (!enabled || !variant.equals("optimized")) {
        return workload;
      }
      var longer = new LinkedHashMap<>(workload);
      longer.put("load.duration", String.valueOf(workloadSeconds + EXTRA_SECONDS));
      return longer;
    }

    List<Timeline> timelines() {
      return List.copyOf(timelines);
    }

    /**
     * {@link AbReport#check} with the errors of the restart's gap (the seconds no sidecar listened) taken out,
     * which a rollout without surge sees too; any other error still fails it.
     */
    int check(List<AbRun.VariantResult> results) throws IOException {
      if (!enabled) {
        return AbReport.check(results);
      }
      int problems = 0;
      for (var result : results) {
        var timeline = timelines.stream().filter(t -> t.run().equals(result.name())).findFirst();
        for (var name : AbReport.TRANSACTIONS) {
          var stats = result.stats().get(name);
          long gap = timeline.filter(Timeline::restarted).isPresent()
            ? FleetRestartReport.gapErrors(timeline.get(), name)
            : 0;
          if (stats == null || stats.total() == 0 || stats.ko() - gap > 0) {
            System.out.printf("[load] check failed: %s %s: %s (%d of its errors in the restart's gap)%n",
              result.name(), name, stats, gap);
            problems++;
          }
        }
        if (timeline.filter(t -> !t.failure().isEmpty()).isPresent()) {
          System.out.printf("[load] check failed: %s: the fleet restart failed: %s%n", result.name(),
            timeline.get().failure());
          problems++;
        }
      }
      System.out.printf("[load] check: %s%n", problems == 0
        ? "both variants complete, 0 errors besides the restart's gap"
        : problems + " problems");
      return problems == 0 ? 0 : 1;
    }
  }

  private final Runs runs;
  private final String run;
  private final SidecarFleet fleet;
  private final CountingHop hop;
  private final ProcessHandle keycloak;
  private final LongSupplier moduleRequests;
  private final long restartAfterMillis;
  private final int workloadSeconds;
  private final List<Sample> samples = new ArrayList<>();
  private final @Nullable Thread sampler;
  private volatile long workloadStart;
  private volatile long stopped;
  private volatile long ready;
  private volatile String failure = "";
  private volatile @Nullable Thread restarter;

  private FleetRestart(Runs runs, String run, boolean sampled, SidecarFleet fleet, CountingHop hop,
    ProcessHandle keycloak, LongSupplier moduleRequests, int workloadSeconds) {
    this.runs = runs;
    this.run = run;
    this.fleet = fleet;
    this.hop = hop;
    this.keycloak = keycloak;
    this.moduleRequests = moduleRequests;
    this.restartAfterMillis = runs.restartSecond * 1000L;
    this.workloadSeconds = workloadSeconds;
    this.sampler = sampled ? Thread.ofPlatform().daemon().name("fleet-restart").start(this::sample) : null;
  }

  /**
   * After Gatling: waits for a restart under way to finish (a fleet being started is not measured), stops sampling
   * and keeps the run's timeline with its Gatling report.
   */
  void done(Path gatlingReport) throws InterruptedException {
    var sampling = sampler;
    if (sampling == null) {
      return;
    }
    var restarting = restarter;
    if (restarting != null) {
      restarting.join();
    }
    sampling.interrupt();
    sampling.join();
    synchronized (samples) {
      runs.timelines.add(new Timeline(run, List.copyOf(samples), workloadStart, stopped, ready, failure,
        gatlingReport, workloadSeconds));
    }
  }

  private void sample() {
    long previousRequests = moduleRequests.getAsLong();
    long previousMillis = System.currentTimeMillis();
    while (!Thread.currentThread().isInterrupted()) {
      long now = System.currentTimeMillis();
      long requests = moduleRequests.getAsLong();
      synchronized (samples) {
        samples.add(new Sample(now, hop.count(CountingHop.Kind.UMA), hop.count(CountingHop.Kind.TOKEN),
          hop.count(CountingHop.Kind.KEYS), cpuSeconds(keycloak), requests));
      }
      if (workloadStart == 0 && requests > previousRequests) {
        workloadStart = previousMillis;
      }
      if (workloadStart > 0 && restarter == null && now - workloadStart >= restartAfterMillis) {
        restarter = Thread.ofPlatform().daemon().name("fleet-restarter").start(this::restart);
      }
      previousRequests = requests;
      previousMillis = now;
      try {
        Thread.sleep(1000 - (System.currentTimeMillis() - now) % 1000);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void restart() {
    stopped = System.currentTimeMillis();
    System.out.printf("[load] %s: restarting the whole fleet %d s into the workload%n", run,
      (stopped - workloadStart) / 1000);
    try {
      fleet.restartAll(READY_TIMEOUT);
      ready = System.currentTimeMillis();
      System.out.printf("[load] %s: fleet ready again %.1f s after the stop%n", run, (ready - stopped) / 1000.0);
    } catch (IOException | RuntimeException e) {
      failure = e.getMessage() == null ? e.toString() : e.getMessage();
      System.out.printf("[load] %s: the fleet restart failed: %s%n", run, failure);
    }
  }

  private static double cpuSeconds(ProcessHandle root) {
    var group = new ArrayList<ProcessHandle>();
    group.add(root);
    root.descendants().forEach(group::add);
    return group.stream()
      .mapToDouble(process -> process.info().totalCpuDuration().orElse(Duration.ZERO).toNanos() / 1e9).sum();
  }

  /** Keycloak's load over a span: calls per second by kind and the cores its CPU time comes to. */
  record Rates(double uma, double tokens, double keys, double cores) {
    static final Rates NONE = new Rates(Double.NaN, Double.NaN, Double.NaN, Double.NaN);
  }

  /** The series of one run in 10-s windows, by the window's first second relative to {@code origin}. */
  static Map<Integer, Rates> tenSecondRates(Timeline timeline, long origin, int fromSecond, int toSecond) {
    var windows = new LinkedHashMap<Integer, Rates>();
    for (int from = fromSecond; from + 10 <= toSecond; from += 10) {
      var rates = rates(timeline, origin + from * 1000L, origin + (from + 10) * 1000L);
      if (!Double.isNaN(rates.uma())) {
        windows.put(from, rates);
      }
    }
    return windows;
  }

  /** The rates between the samples nearest to two instants; {@link Rates#NONE} without two such samples. */
  static Rates rates(Timeline timeline, long fromMillis, long toMillis) {
    var first = at(timeline, fromMillis);
    var last = at(timeline, toMillis);
    if (first == null || last == null || last.epochMillis() <= first.epochMillis()) {
      return Rates.NONE;
    }
    double seconds = (last.epochMillis() - first.epochMillis()) / 1000.0;
    return new Rates((last.uma() - first.uma()) / seconds, (last.tokens() - first.tokens()) / seconds,
      (last.keys() - first.keys()) / seconds, (last.keycloakCpuSeconds() - first.keycloakCpuSeconds()) / seconds);
  }

  /** The sample nearest to {@code epochMillis}, null if none is within 1.5 s of it. */
  static @Nullable Sample at(Timeline timeline, long epochMillis) {
    @Nullable
    Sample nearest = null;
    for (var sample : timeline.samples()) {
      if (nearest == null
        || Math.abs(sample.epochMillis() - epochMillis) < Math.abs(nearest.epochMillis() - epochMillis)) {
        nearest = sample;
      }
    }
    return nearest != null && Math.abs(nearest.epochMillis() - epochMillis) <= 1500 ? nearest : null;
  }
}
