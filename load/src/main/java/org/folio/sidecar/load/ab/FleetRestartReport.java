package org.folio.sidecar.load.ab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.testkit.ConfigMappings;

/**
 * The report's "Fleet restart" section ({@code --fleet-restart}, {@link FleetRestart}): Keycloak's load in 10-s
 * windows around the restart against the steady mean before it, check-out latency and errors from Gatling's
 * per-second series, and the target (peak <= 5x the steady mean, 0 errors besides the gap).
 */
final class FleetRestartReport {

  /** How far around the stop the section looks (clipped to the workload). */
  private static final int SPAN_SECONDS = 60;
  /** Requests that fail this long after the fleet answered ready still count to the gap: the last refusals' echo. */
  private static final long GAP_GRACE_MILLIS = 2000;
  static final double TARGET_RATIO = 5;
  private static final AuthzCacheConfig AUTHZ_DEFAULTS = ConfigMappings.load(AuthzCacheConfig.class, Map.of());
  private static final Pattern SERIES = Pattern.compile("name: '([^']+)',\\s*data: \\[(\\[[^\\n]*)\\]");
  private static final Pattern POINT = Pattern.compile("\\[(\\d+), (null|-?[\\d.]+)\\]");

  /** Gatling's per-second figures of one request name (or all), by epoch second: failed answers and the p99. */
  record PerSecond(TreeMap<Long, Long> ko, TreeMap<Long, Long> p99) {
    static final PerSecond NONE = new PerSecond(new TreeMap<>(), new TreeMap<>());

    /** Failed answers in the seconds from {@code fromMillis}'s to {@code toMillis}'s, both included. */
    long ko(long fromMillis, long toMillis) {
      if (fromMillis > toMillis) {
        return 0;
      }
      return ko.subMap(fromMillis / 1000, true, toMillis / 1000, true).values().stream().mapToLong(Long::longValue)
        .sum();
    }

    /** The worst second's p99 of the answered requests in the span; -1 when none. */
    long worstP99(long fromMillis, long toMillis) {
      return seconds(fromMillis, toMillis).max().orElse(-1);
    }

    /** The median over the span's seconds of each second's p99: the typical second, not its worst. */
    long medianP99(long fromMillis, long toMillis) {
      var values = seconds(fromMillis, toMillis).sorted().toArray();
      return values.length == 0 ? -1 : values[values.length / 2];
    }

    private java.util.stream.LongStream seconds(long fromMillis, long toMillis) {
      return fromMillis / 1000 >= toMillis / 1000
        ? java.util.stream.LongStream.empty()
        : p99.subMap(fromMillis / 1000, true, toMillis / 1000, false).values().stream().mapToLong(Long::longValue);
    }
  }

  private final StringBuilder text = new StringBuilder();

  private FleetRestartReport() {
  }

  static java.time.Duration refreshAfter() {
    return AUTHZ_DEFAULTS.refreshAfter();
  }

  /** Appends the section to {@code report}, a part per restarted run. */
  static void append(Path report, AbRun.Profile profile, List<FleetRestart.Timeline> timelines,
    java.util.function.Function<String, Map<String, String>> env) throws IOException {
    var writer = new FleetRestartReport();
    writer.line("## Fleet restart");
    writer.line("");
    for (var timeline : timelines) {
      if (!timeline.failure().isEmpty()) {
        writer.line("### %s", timeline.run());
        writer.line("");
        writer.line("The restart failed: %s", timeline.failure());
        writer.line("");
      } else if (timeline.restarted()) {
        writer.section(profile, timeline, env.apply(timeline.run()));
      }
    }
    Files.writeString(report, writer.text, java.nio.file.StandardOpenOption.APPEND);
  }

  /** The transaction's failed requests from the stop to {@link #GAP_GRACE_MILLIS} after the fleet was ready. */
  static long gapErrors(FleetRestart.Timeline timeline, String request) throws IOException {
    return perSecond(timeline.gatling(), request).ko(timeline.stopped(), timeline.ready() + GAP_GRACE_MILLIS);
  }

  private void section(AbRun.Profile profile, FleetRestart.Timeline run, Map<String, String> env)
    throws IOException {
    long start = run.workloadStart();
    long end = start + run.workloadSeconds() * 1000L;
    long stop = run.stopped();
    int stopSecond = (int) ((stop - start) / 1000);
    int readySeconds = (int) Math.round((run.ready() - stop) / 1000.0);
    line("### %s%s", run.run(), env.isEmpty()
      ? ""
      : ", with " + String.join(", ", env.entrySet().stream()
        .map(e -> "`" + e.getKey() + "=" + e.getValue() + "`").toList()));
    line("");
    line("`--fleet-restart`: in **%s**, %d s into the workload (its midpoint, or 20 s past the first refresh period "
      + "when that is later; the baseline's workload is %d s, this one ran %d s longer so that the minute after a "
      + "slow restart is in it), every sidecar got SIGTERM at once, as "
      + "a platform upgrade's rollout without surge sends it; each drained for SIDECAR_SHUTDOWN_DELAY (answering for "
      + "its first half, refusing connections after) and exited, then six fresh processes started on the same ports "
      + "with empty caches; all answered ready %d s after the stop (%.1f s). Gatling kept sending throughout. "
      + "Keycloak calls are counted at the hop, Keycloak's CPU read from /proc, each second.", run.run(), stopSecond,
      profile.durationSeconds(), FleetRestart.EXTRA_SECONDS,
      readySeconds, (run.ready() - stop) / 1000.0);
    line("");
    int from = Math.max(-SPAN_SECONDS, -stopSecond) / 10 * 10;
    // until a minute after the fleet was ready again: its cold caches meet the traffic only then
    long afterEnd = Math.min(run.ready() + SPAN_SECONDS * 1000L, end);
    int to = (int) ((afterEnd - stop) / 1000);
    var series = FleetRestart.tenSecondRates(run, stop, from, to);
    var checkOut = perSecond(run.gatling(), "check-out");
    var all = perSecondAll(run.gatling());
    line("| seconds from the stop | UMA/s | service tokens/s | realm keys/s | Keycloak CPU cores | "
      + "check-out p99 ms, worst second | failed requests |");
    line("|---|---:|---:|---:|---:|---:|---:|");
    series.forEach((second, rates) -> {
      long windowStart = stop + second * 1000L;
      long windowEnd = windowStart + 10_000;
      line("| %d to %d | %.1f | %.1f | %.1f | %.2f | %s | %d |", second, second + 10, rates.uma(), rates.tokens(),
        rates.keys(), rates.cores(), p99(checkOut.worstP99(windowStart, windowEnd)), all.ko(windowStart,
          windowEnd - 1));
    });
    line("");

    // the steady mean: the fleet's rate after its first refresh period, up to a minute before the stop
    int refreshSecond = (int) (profile.scale().scaled(AUTHZ_DEFAULTS.refreshAfter()).toMillis() / 1000);
    int before = Math.max(refreshSecond, stopSecond - SPAN_SECONDS);
    if (stopSecond - before < 10) {
      before = 0;
    }
    var steady = FleetRestart.rates(run, start + before * 1000L, stop);
    var steadyFrom = before == 0
      ? "s 0 to %d of the workload: its cold start included, so the mean is high and the ratio low".formatted(
        stopSecond)
      : ("s %d to %d of the workload (after the first refresh period, s %d, the scaled "
        + "SIDECAR_AUTHZ_CACHE_REFRESH_AFTER; at most %d s before the stop)").formatted(before, stopSecond,
          refreshSecond, SPAN_SECONDS);
    var peak = peaks(run, stop, afterEnd);
    var after = FleetRestart.rates(run, stop, afterEnd);
    var spanBefore = FleetRestart.rates(run, Math.max(start, stop - SPAN_SECONDS * 1000L), stop);
    line("Steady mean from %s. Peak: the highest rate over any 10 consecutive seconds from the stop to %d s after "
      + "the fleet was ready again (%d s after the stop).", steadyFrom, (afterEnd - run.ready()) / 1000,
      (afterEnd - stop) / 1000);
    line("");
    line("| Keycloak sees | steady mean | peak over 10 s after the stop | peak / steady | mean from the stop, %d s |",
      (afterEnd - stop) / 1000);
    line("|---|---:|---:|---:|---:|");
    line("| UMA decisions/s | %.1f | %.1f | %s | %.1f |", steady.uma(), peak.uma(), ratio(peak.uma(), steady.uma()),
      after.uma());
    line("| service-token grants/s | %.2f | %.1f | %s | %.2f |", steady.tokens(), peak.tokens(),
      ratio(peak.tokens(), steady.tokens()), after.tokens());
    line("| realm-key fetches/s | %.2f | %.1f | %s | %.2f |", steady.keys(), peak.keys(),
      ratio(peak.keys(), steady.keys()), after.keys());
    line("| Keycloak CPU, cores | %.2f | %.2f | %s | %.2f |", steady.cores(), peak.cores(),
      ratio(peak.cores(), steady.cores()), after.cores());
    line("");
    line("Keycloak's CPU in the %d s before the stop: %.2f cores; in the %d s after it: %.2f cores (%s).",
      (stop - Math.max(start, stop - SPAN_SECONDS * 1000L)) / 1000, spanBefore.cores(), (afterEnd - stop) / 1000,
      after.cores(), ratio(after.cores(), spanBefore.cores()));
    line("");
    long beforeFrom = Math.max(start, stop - SPAN_SECONDS * 1000L);
    long afterFrom = run.ready() + GAP_GRACE_MILLIS;
    long afterTo = Math.min(afterFrom + SPAN_SECONDS * 1000L, end + 5000);
    line("Check-out latency from Gatling's per-second percentiles of answered requests (a window's exact p99 is not in "
      + "Gatling's report): before, from %d s before the stop to the stop; after, from %d s after the fleet was ready, "
      + "for %d s.", (stop - beforeFrom) / 1000, GAP_GRACE_MILLIS / 1000, Math.max(0, afterTo - afterFrom) / 1000);
    line("");
    line("| check-out p99 ms | before the restart | after it |");
    line("|---|---:|---:|");
    line("| worst second | %s | %s |", p99(checkOut.worstP99(beforeFrom, stop)),
      p99(checkOut.worstP99(afterFrom, afterTo)));
    line("| median second | %s | %s |", p99(checkOut.medianP99(beforeFrom, stop)),
      p99(checkOut.medianP99(afterFrom, afterTo)));
    line("");
    line("| failed requests | check-out | check-in | import | all |");
    line("|---|---:|---:|---:|---:|");
    long gapTo = run.ready() + GAP_GRACE_MILLIS;
    var cells = new ArrayList<String>();
    var otherCells = new ArrayList<String>();
    long gapSum = 0;
    long otherSum = 0;
    for (var name : AbReport.TRANSACTIONS) {
      var requests = perSecond(run.gatling(), name);
      long gap = requests.ko(stop, gapTo);
      long other = requests.ko(0, Long.MAX_VALUE) - gap;
      gapSum += gap;
      otherSum += other;
      cells.add(String.valueOf(gap));
      otherCells.add(String.valueOf(other));
    }
    line("| in the gap: the stop to %d s after ready (%d s) | %s | %d |", GAP_GRACE_MILLIS / 1000,
      (gapTo - stop + 999) / 1000, String.join(" | ", cells), gapSum);
    line("| any other time of the run | %s | %d |", String.join(" | ", otherCells), otherSum);
    line("");
    line("The gap's errors are what a rollout without surge costs on this harness (one process per module, the "
      + "same port for old and new): requests refused while no sidecar listens. Kubernetes with surge, or more "
      + "replicas than the rollout takes down, does not see them; the report's \"0 errors\" target counts them, "
      + "`--check` does not. In %s the fleet's counters (cache hits, sidecar CPU, UMA calls) cover the old and the "
      + "new processes; the time-added table reads only the old processes' access logs.", run.run());
    line("");
    boolean umaMet = peak.uma() <= TARGET_RATIO * steady.uma();
    boolean tokensMet = peak.tokens() <= TARGET_RATIO * steady.tokens();
    line("- Target: UMA peak over 10 s after the restart <= %.0fx the steady mean: **%s** (%s).", TARGET_RATIO,
      umaMet ? "met" : "missed", ratio(peak.uma(), steady.uma()));
    line("- Target: service-token peak over 10 s after the restart <= %.0fx the steady mean: **%s** (%s).",
      TARGET_RATIO, tokensMet ? "met" : "missed", ratio(peak.tokens(), steady.tokens()));
    line("- Target: 0 errors besides the gap: **%s** (%d).", otherSum == 0 ? "met" : "missed", otherSum);
    line("");
  }

  /** The highest rates over any 10 consecutive seconds of the span, each kind on its own. */
  private static FleetRestart.Rates peaks(FleetRestart.Timeline timeline, long fromMillis, long toMillis) {
    double uma = 0;
    double tokens = 0;
    double keys = 0;
    double cores = 0;
    for (var sample : timeline.samples()) {
      if (sample.epochMillis() < fromMillis - 500 || sample.epochMillis() + 10_000 > toMillis + 500) {
        continue;
      }
      var rates = FleetRestart.rates(timeline, sample.epochMillis(), sample.epochMillis() + 10_000);
      if (!Double.isNaN(rates.uma())) {
        uma = Math.max(uma, rates.uma());
        tokens = Math.max(tokens, rates.tokens());
        keys = Math.max(keys, rates.keys());
        cores = Math.max(cores, rates.cores());
      }
    }
    return new FleetRestart.Rates(uma, tokens, keys, cores);
  }

  /** The request's per-second series from its page of Gatling's report; none when the report lacks it. */
  static PerSecond perSecond(Path gatling, String request) throws IOException {
    if (!Files.isDirectory(gatling)) {
      return PerSecond.NONE;
    }
    try (Stream<Path> files = Files.list(gatling)) {
      // req_<name>-<hash of the name>.html; every page's menu names every request
      var page = files
        .filter(f -> f.getFileName().toString().matches("req_" + Pattern.quote(request) + "--?\\d+\\.html"))
        .findFirst();
      return page.isPresent() ? parse(Files.readString(page.get())) : PerSecond.NONE;
    }
  }

  /** Every request's per-second series, from the report's index page. */
  static PerSecond perSecondAll(Path gatling) throws IOException {
    var index = gatling.resolve("index.html");
    return Files.exists(index) ? parse(Files.readString(index)) : PerSecond.NONE;
  }

  /**
   * Gatling's Highcharts pages: the "Number of responses per second" chart's KO series and the "Response Time
   * Percentiles over Time (OK)" chart's 99% series, each {@code name: '...', data: [[epoch ms, value], ...]}.
   */
  static PerSecond parse(String html) {
    var ko = new TreeMap<Long, Long>();
    var p99 = new TreeMap<Long, Long>();
    for (var chart : html.split("new Highcharts\\.")) {
      boolean responses = chart.contains(">Number of responses per second<");
      boolean percentiles = chart.contains(">Response Time Percentiles over Time (OK)<");
      if (!responses && !percentiles) {
        continue;
      }
      var series = SERIES.matcher(chart);
      while (series.find()) {
        var name = series.group(1);
        if (!(responses && name.equals("KO")) && !(percentiles && name.equals("99%"))) {
          continue;
        }
        var target = responses ? ko : p99;
        var point = POINT.matcher(series.group(2));
        while (point.find()) {
          if (!point.group(2).equals("null")) {
            target.put(Long.parseLong(point.group(1)) / 1000, Math.round(Double.parseDouble(point.group(2))));
          }
        }
      }
    }
    return new PerSecond(ko, p99);
  }

  private static String p99(long millis) {
    return millis < 0 ? "none answered" : String.valueOf(millis);
  }

  private static String ratio(double part, double whole) {
    return whole > 0 && !Double.isNaN(part) ? String.format(Locale.ROOT, "%.1fx", part / whole) : "n/a";
  }

  private void line(String format, Object... args) {
    text.append(args.length == 0 ? format : String.format(Locale.ROOT, format, args)).append('\n');
  }
}
