package org.folio.sidecar.load.ab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.load.fleet.CirculationModules;
import org.folio.sidecar.load.fleet.ShippedJvmOptions;
import org.folio.sidecar.load.fleet.SidecarConfig;
import org.folio.sidecar.load.fleet.StubModules;
import org.folio.sidecar.load.fleet.TimeScale;
import org.folio.sidecar.load.measure.ClosedLoop;
import org.folio.sidecar.load.measure.JvmPauses;
import org.folio.sidecar.load.measure.LoadAverage;
import org.folio.sidecar.testkit.ConfigMappings;
import org.folio.sidecar.testkit.CountingHop.Kind;

/** Writes report.md of an A/B run and judges it against the targets (figures, not test asserts). */
final class AbReport {

  static final List<String> TRANSACTIONS = List.of("check-out", "check-in", "import");
  private static final AuthzCacheConfig AUTHZ_DEFAULTS = ConfigMappings.load(AuthzCacheConfig.class, Map.of());
  /** The optimized cache's allow TTL (SIDECAR_AUTHZ_CACHE_ALLOW_TTL default): a decision is asked once per TTL. */

  private final StringBuilder text = new StringBuilder();
  private final List<String> missed = new ArrayList<>();
  private int targets;

  private AbReport() {
  }

  static Path write(Path out, AbRun.Profile profile, List<AbRun.VariantResult> results,
    Map<String, AbRun.Overhead> overheads, Duration wallTime, int refreshes, int refreshFailures,
    boolean otherBuild, Optional<Path> baselineDefaults) throws IOException {
    var report = new AbReport();
    var base = results.stream().filter(r -> r.variant().equals("baseline")).toList();
    var opt = results.stream().filter(r -> r.variant().equals("optimized")).toList();
    var scale = profile.scale();
    report.line("# Load A/B: folio-caching-sidecar against the upstream-like baseline");
    report.line("");
    report.line("Run %s on %d cores, loopback only, %d s in all. Profile **%s**: %d tenants x %d staff users, %d s of "
      + "workload per variant: check-out and check-in at %s/s each, data import at %s/s. Access tokens live %d s; "
      + "users refresh every 70 %% of that, their first refreshes spread evenly (%d refreshes, %d failed), keeping "
      + "their session. Stub modules answer after %d ms. Each sidecar: `%s`.",
      LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")),
      Runtime.getRuntime().availableProcessors(), wallTime.toSeconds(), profile.name(), profile.tenants(),
      profile.usersPerTenant(), profile.durationSeconds(), number(profile.rate()), number(profile.importRate()),
      profile.tokenLifespanSeconds(), refreshes, refreshFailures, StubModules.SERVICE_MILLIS, ShippedJvmOptions.line());
    report.line("");
    // told by the command line, not by comparing the commands: each run's command carries its own log paths
    if (otherBuild) {
      report.line("- **baseline**: `%s`, given as `--baseline-cmd`; it reported itself as %s. Its production time "
        + "constants: %s.", base.getFirst().command(), base.getFirst().version(),
        baselineDefaults
          .map(file -> "from `" + file + "` (" + describe(file) + "), the rest as this build's legacy mode")
          .orElse("none given (`--baseline-defaults`), so this build's legacy-mode defaults were assumed"));
    } else {
      report.line("- **baseline**: `%s` (it reported itself as %s) with `SIDECAR_AUTHZ_CACHE_MODE=legacy`, this "
        + "build's re-implementation of upstream v3.0.18's cache: decisions keyed on the token's `exp`, 250 entries, "
        + "full RPT requests, no single flight; service tokens per sidecar, at most 50 tenants, dropped 25 s before "
        + "expiry, never renewed ahead. Its time constants are legacy mode's own defaults.",
        base.getFirst().command(), base.getFirst().version());
    }
    report.line("- **optimized**: `%s` (it reported itself as %s) with the default cache.", opt.getFirst().command(),
      opt.getFirst().version());
    report.line("");
    report.line("Runs in the order %s%s. Every counter below is a delta over the workload's window; the warm-up is not "
      + "in it.", String.join(", ", results.stream().map(AbRun.VariantResult::name).toList()),
      results.size() > 2 ? ": each variant twice, so neither always meets the warmer Keycloak" : "");
    report.line("");
    report.line("## Time scale");
    report.line("");
    report.line("Every time constant of both fleets and of the workload is its production value x%s, so %d s of "
      + "workload stand for %s of production time. Unscaled: %s.", profile.timeScale(),
      profile.durationSeconds(), human(scale.production(Duration.ofSeconds(profile.durationSeconds()))),
      TimeScale.unscaled());
    report.line("");
    report.line("| constant | production | this run |");
    report.line("|---|---:|---:|");
    scale.table().forEach((name, values) -> report.line("| %s | %s | %s |", name, human(values[0]), human(values[1])));
    report.line("");
    var chains = StubModules.chainLengths();
    report.line("A check-out is one user request to circulation's sidecar; circulation then makes %d calls through its "
      + "sidecar's egress to the users, feesfines, inventory and inventory-storage sidecars, each authorized at "
      + "ingress with the tenant's service token. A check-in likewise (%d calls). An import sends a 4 KB record to "
      + "source-record-storage (reached by route override) and one to inventory-storage. The check-out endpoint and "
      + "mod-users' `GET /users/{id}` have `permissionsDesired`: the sidecar in front of each asks mod-users-keycloak "
      + "which of them the user holds (a check-out reads two users: the patron and the staff user).",
      chains.get("check-out"), chains.get("check-in"));
    report.line("");

    report.line("## Transactions (ms)");
    report.line("");
    report.line("| transaction | variant | requests | errors | p50 | p75 | p95 | p99 | max |");
    report.line("|---|---|---:|---:|---:|---:|---:|---:|---:|");
    for (var name : TRANSACTIONS) {
      for (var result : results) {
        var stats = result.stats().get(name);
        if (stats == null) {
          report.line("| %s | %s | missing | | | | | | |", name, result.name());
        } else {
          report.line("| %s | %s | %d | %d | %d | %d | %d | %d | %d |", name, result.name(), stats.total(), stats.ko(),
            stats.p50(), stats.p75(), stats.p95(), stats.p99(), stats.max());
        }
      }
    }
    report.line("");

    report.line("## Keycloak calls by the sidecars (counted at a hop in front of Keycloak)");
    report.line("");
    report
      .line("| run | UMA decisions | distinct decision keys | minimum possible | UMA/s, steady window | UMA/s after "
        + "the first refresh period: mean | peak over 10 s | peak / mean | service tokens | realm keys | other |");
    report.line("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    int warmSecond = (int) (scale.scaled(AUTHZ_DEFAULTS.refreshAfter()).toMillis() / 1000);
    for (var result : results) {
      var rates = result.steady().ratesFrom(warmSecond);
      report.line("| %s | %d | %d | %d | %.1f | %.1f | %.1f | %.2f | %d | %d | %d |", result.name(),
        result.keycloakCalls().get(Kind.UMA), result.distinctDecisionKeys(), minimumUma(profile),
        result.steady().umaPerSecond(), rates.mean(), rates.peakTenSeconds(), rates.peakTenSeconds() / rates.mean(),
        result.keycloakCalls().get(Kind.TOKEN),
        result.keycloakCalls().get(Kind.KEYS), result.keycloakCalls().get(Kind.OTHER)
          + result.keycloakCalls().get(Kind.EXCHANGE) + result.keycloakCalls().get(Kind.INTROSPECT));
    }
    report.line("");
    report
      .line("Distinct decision keys: the different (realm, client, subject, session, permission) the UMA calls asked "
        + "about, counted at the hop in this run. Minimum possible, from the workload's definition alone: %d tenants x "
        + "(%d users x %d permissions they ask for + %d permissions the modules' calls ask for with the tenant's "
        + "service token) = %d keys, each asked once per allow TTL of %s: x ceil(%d s / %s), what a cache that never "
        + "asks twice within its TTL needs. UMA/s, steady window: the rate over the last third of the seconds with "
        + "traffic (%s), when every cache has met every key it will see: what a long-running fleet costs Keycloak, "
        + "refresh-ahead included, apart from a cold cache's one-off cost. After the first refresh period (from s %d, "
        + "the optimized cache's scaled refresh-after): the mean rate to the end of the workload and the highest rate "
        + "over any 10 consecutive seconds, what Keycloak must be sized for.", profile.tenants(),
        profile.usersPerTenant(), CirculationModules.USER_TRANSACTIONS.size(), StubModules.chainPermissions().size(),
        workloadKeys(profile), human(scale.allowTtl()), profile.durationSeconds(), human(scale.allowTtl()),
        windows(results), warmSecond);
    report.line("");

    var chart = Charts.umaPerSecond(out, results);
    report.line(chart.endsWith(".png")
      ? "![UMA decision calls per second, every run](" + chart + ")"
      : "UMA calls per second over time: chart " + chart);
    report.line("");

    report.line("## Decision cache, summed over the 6 sidecars");
    report.line("");
    report.line("| run | hits | misses | hit ratio |");
    report.line("|---|---:|---:|---:|");
    for (var result : results) {
      var hm = result.cacheHitsMisses();
      report.line(hm == null
        ? "| %s | n/a | n/a | n/a |".formatted(result.name())
        : "| %s | %d | %d | %.1f %% |".formatted(result.name(), hm[0], hm[1],
          100.0 * hm[0] / Math.max(1, hm[0] + hm[1])));
    }
    report.line("");

    report.line("## Time the sidecars added, from their access logs");
    report.line("");
    report.line("Every request each sidecar handled during the workload, ingress and egress: its total time less the "
      + "module's (on egress, the target's) time. This is where a decision-cache miss shows: a Keycloak call inside "
      + "the sidecar's own time.");
    report.line("");
    report.line("| run | requests | p50 ms | p99 ms | p99.9 ms | max ms |");
    report.line("|---|---:|---:|---:|---:|---:|");
    for (var result : results) {
      var added = result.sidecarsAdded();
      report.line(added.count() == 0
        ? "| %s | n/a (another log format) | | | | |".formatted(result.name())
        : "| %s | %d | %s | %s | %s | %s |".formatted(result.name(), added.count(), millis(added.p50()),
          millis(added.p99()), millis(added.p999()), millis(added.max())));
    }
    report.line("");

    report.line("## The sidecars' JVM pauses");
    report.line("");
    report.line("From the GC and safepoint logs each sidecar of this build writes (`logs/<run>/jvm-<pid>.log`), over "
      + "the processes' whole life, start and warm-up included; empty for another build given as baseline.");
    report.line("");
    report.line(
      "| run | GC pauses | longest GC pause ms | GC pauses in all ms | longest safepoint ms | added time p99.9 ms |");
    report.line("|---|---:|---:|---:|---:|---:|");
    for (var result : results) {
      var pauses = result.pauses();
      report.line(pauses.equals(JvmPauses.NONE)
        ? "| %s | not measured | not measured | not measured | not measured | %s |".formatted(result.name(),
          millis(result.sidecarsAdded().p999()))
        : "| %s | %d | %.1f | %.1f | %.1f | %s |".formatted(result.name(), pauses.gcPauses(), pauses.gcMaxMillis(),
          pauses.gcTotalMillis(), pauses.safepointMaxMillis(), millis(result.sidecarsAdded().p999())));
    }
    report.line("");
    report
      .line("Where the longest pause is far below the p99.9 of the time the sidecars added, the JVM does not explain "
        + "that tail: Keycloak calls on misses (the baseline), or the shared 2-core machine, do.");
    report.line("");

    report.line("## Resources during the workload");
    report.line("");
    report.line(
      "| run | sidecars CPU s (6 processes) | sidecars peak RSS MB (sum of 6) | Keycloak CPU s | Keycloak CPU s per 1000 user requests | Keycloak peak RSS MB |");
    report.line("|---|---:|---:|---:|---:|---:|");
    for (var result : results) {
      report.line("| %s | %.1f | %d | %.1f | %.2f | %d |", result.name(), result.sidecars().cpuSeconds(),
        result.sidecars().peakRssBytes() >> 20, result.keycloak().cpuSeconds(), keycloakCpuPerThousand(result),
        result.keycloak().peakRssBytes() >> 20);
    }
    report.line("");
    report.line("Keycloak's CPU includes the users' own token refreshes, the same in every run.");
    report.line("");
    report.line("## Footprint per sidecar");
    report.line("");
    report
      .line("Per sidecar, the mean over the fleet's 6 processes: resident memory after start (ready, no traffic yet), "
        + "peak under the workload (the fleet's highest sampled sum / 6), at idle (3 s after the workload), after a full "
        + "GC (`jcmd GC.run`); threads at idle. The CPU column is the whole fleet's (6 sidecars; a user request "
        + "passes through 5 of them) per 1000 user requests over the workload's window, refresh-ahead and token "
        + "renewals included. Idle cores: each sidecar's CPU over %s with nobody calling it, after the workload "
        + "and before the full GC: the fixed cost a sidecar adds to its pod (timers, token renewals, GC); in a "
        + "compressed run its timers fire faster, so only a production-time run's figure is the production cost.",
        human(profile.idleWindow()));
    report.line("");
    report.line("| run | RSS after start MB | peak RSS MB | RSS at idle MB | RSS after full GC MB | threads | "
      + "fleet CPU s per 1000 user requests | idle cores per sidecar |");
    report.line("|---|---:|---:|---:|---:|---:|---:|---:|");
    int fleetSize = CirculationModules.ALL.size();
    for (var result : results) {
      var footprint = result.footprint();
      report.line("| %s | %s | %d | %s | %s | %s | %.3f | %.4f |", result.name(),
        megabytes(footprint.afterStartBytes()), result.sidecars().peakRssBytes() / fleetSize >> 20,
        megabytes(footprint.idleBytes()), megabytes(footprint.afterGcBytes()),
        footprint.idleThreads() < 0 ? "not measured" : footprint.idleThreads(),
        result.sidecars().cpuSeconds() * 1000 / Math.max(1, result.userRequests()), footprint.idleCores());
    }
    report.line("");

    report.line("## Optimized / baseline");
    report.line("");
    report.line("Each figure is the mean over the variant's runs.");
    report.line("");
    report.line("| figure | baseline | optimized | optimized / baseline |");
    report.line("|---|---:|---:|---:|");
    for (var name : List.of("check-out", "check-in")) {
      if (base.stream().allMatch(r -> r.stats().containsKey(name))
        && opt.stream().allMatch(r -> r.stats().containsKey(name))) {
        report.ratio(name + " p50 ms", mean(base, r -> r.stats().get(name).p50()),
          mean(opt, r -> r.stats().get(name).p50()));
        report.ratio(name + " p95 ms", mean(base, r -> r.stats().get(name).p95()),
          mean(opt, r -> r.stats().get(name).p95()));
        report.ratio(name + " p99 ms", mean(base, r -> r.stats().get(name).p99()),
          mean(opt, r -> r.stats().get(name).p99()));
      }
    }
    if (results.stream().allMatch(r -> r.sidecarsAdded().count() > 0)) {
      report.ratio("time added per sidecar pass, p50 ms", mean(base, r -> r.sidecarsAdded().p50() / 1000.0),
        mean(opt, r -> r.sidecarsAdded().p50() / 1000.0));
      report.ratio("time added per sidecar pass, p99 ms", mean(base, r -> r.sidecarsAdded().p99() / 1000.0),
        mean(opt, r -> r.sidecarsAdded().p99() / 1000.0));
    }
    report.ratio("UMA decisions", mean(base, r -> r.keycloakCalls().get(Kind.UMA)),
      mean(opt, r -> r.keycloakCalls().get(Kind.UMA)));
    report.ratio("UMA decisions per second, steady window", mean(base, r -> r.steady().umaPerSecond()),
      mean(opt, r -> r.steady().umaPerSecond()));
    report.ratio("desired-permission lookups per 1000 user requests", mean(base, AbReport::lookupsPerThousand),
      mean(opt, AbReport::lookupsPerThousand));
    report.ratio("Keycloak CPU s per 1000 user requests", mean(base, AbReport::keycloakCpuPerThousand),
      mean(opt, AbReport::keycloakCpuPerThousand));
    report.ratio("sidecars CPU s", mean(base, r -> r.sidecars().cpuSeconds()),
      mean(opt, r -> r.sidecars().cpuSeconds()));
    report.ratio("sidecars peak RSS MB", mean(base, r -> r.sidecars().peakRssBytes() >> 20),
      mean(opt, r -> r.sidecars().peakRssBytes() >> 20));
    report.line("");

    report.line("## Desired permissions (mod-users-keycloak lookups, counted at its stub)");
    report.line("");
    report.line("| run | lookups | per 1000 user requests |");
    report.line("|---|---:|---:|");
    for (var result : results) {
      report.line("| %s | %d | %.0f |", result.name(), result.permissionLookups(), lookupsPerThousand(result));
    }
    report.line("");
    report.line("Upstream (v3.0.18 and v4.0.3) asks on every request to an endpoint with `permissionsDesired`; the "
      + "optimized sidecar reuses an answer per (tenant, user, desired set) for `%s` (%s here) and shares concurrent "
      + "lookups. A user's answers are reused within one transaction (the staff user read twice per check-out) and "
      + "across transactions only when they come closer together than that TTL.",
      TimeScale.DESIRED_TTL, human(scale.desiredTtl()));
    report.line("");

    report.line("## Route override");
    report.line("");
    report.line("Requests for source-record-storage that reached its discovered location (the shared deployment) "
      + "instead of the override: baseline %d, optimized %d.",
      base.stream().mapToLong(AbRun.VariantResult::discoveryHits).sum(),
      opt.stream().mapToLong(AbRun.VariantResult::discoveryHits).sum());
    report.line("");

    for (var variant : overheads.entrySet()) {
      hitPath(report, out, profile, variant.getKey(), variant.getValue());
    }
    if (overheads.isEmpty()) {
      report.line("## Hit path");
      report.line("");
      report.line("Not measured.");
      report.line("");
    }
    report.closedLoopSideBySide(overheads);

    report.line("## Targets");
    report.line("");
    report.line("Set in issue 16 before this run (on means over each variant's runs); a missed one stays here and in "
      + "the index.");
    report.line("");
    report.line("| target | figure | met |");
    report.line("|---|---|---|");
    double baseSteady = mean(base, r -> r.steady().umaPerSecond());
    double optSteady = mean(opt, r -> r.steady().umaPerSecond());
    report.target("steady state: optimized UMA/s <= 1/3 of baseline's", "%.1f/s vs %.1f/s".formatted(optSteady,
      baseSteady), optSteady * 3 <= baseSteady);
    double baseCpu = mean(base, AbReport::keycloakCpuPerThousand);
    double optCpu = mean(opt, AbReport::keycloakCpuPerThousand);
    report.target("Keycloak CPU per 1000 user requests: optimized <= 1/5 of baseline's", "%.2f s vs %.2f s".formatted(
      optCpu, baseCpu), optCpu * 5 <= baseCpu);
    if (results.stream().allMatch(r -> r.stats().containsKey("check-out"))) {
      double baseP50 = mean(base, r -> r.stats().get("check-out").p50());
      double optP50 = mean(opt, r -> r.stats().get("check-out").p50());
      double baseP99 = mean(base, r -> r.stats().get("check-out").p99());
      double optP99 = mean(opt, r -> r.stats().get("check-out").p99());
      report.target("check-out p50 lower than baseline's", "%s ms vs %s ms".formatted(number(optP50), number(baseP50)),
        optP50 < baseP50);
      report.target("check-out p99 lower than baseline's", "%s ms vs %s ms".formatted(number(optP99), number(baseP99)),
        optP99 < baseP99);
    }
    double baseLookups = mean(base, AbReport::lookupsPerThousand);
    double optLookups = mean(opt, AbReport::lookupsPerThousand);
    report.target("desired-permission lookups per 1000 user requests: optimized fewer than baseline's",
      "%.0f vs %.0f".formatted(optLookups, baseLookups), optLookups < baseLookups);
    long errors = results.stream().flatMap(r -> r.stats().values().stream()).mapToLong(GatlingRun.Stats::ko).sum()
      + overheads.values().stream().flatMap(o -> o.paths().values().stream()).mapToLong(GatlingRun.Stats::ko).sum();
    var overhead = overheads.getOrDefault("optimized", AbRun.Overhead.NONE);
    report.target("0 errors", errors + " failed requests", errors == 0);
    var loopSidecar = point(overhead, "sidecar", 64);
    var loopNginx = point(overhead, "nginx", 64);
    if (loopSidecar.isPresent() && loopNginx.isPresent()) {
      var s = loopSidecar.get();
      var n = loopNginx.get();
      report.target("closed loop, 64 connections: sidecar >= 0.5x nginx's requests/s",
        "%.0f/s vs %.0f/s".formatted(s.requestsPerSecond(), n.requestsPerSecond()),
        s.requestsPerSecond() >= 0.5 * n.requestsPerSecond());
      report.target("closed loop, 64 connections: sidecar p99 <= 2x nginx's",
        "%.2f ms vs %.2f ms".formatted(s.p99Millis(), n.p99Millis()), s.p99Millis() <= 2 * n.p99Millis());
    }
    var sidecar = overhead.paths().get("sidecar");
    var nginx = overhead.paths().get("nginx");
    if (sidecar != null && nginx != null) {
      report.target("sidecar hit-path p99 within 1.5x of nginx's",
        "%d ms vs %d ms".formatted(sidecar.p99(), nginx.p99()),
        sidecar.p99() <= nginx.p99() * 1.5);
    }
    report.issue28Targets(opt, overhead, warmSecond);
    if (otherBuild) {
      report.issue44Targets(base, opt);
    }
    report.line("");
    report
      .line("Gatling's HTML reports: `gatling-baseline/`, `gatling-optimized/`, `gatling-overhead/` beside this file "
        + "(not committed); logs in `logs/`, the sidecars' in `logs/baseline/` and `logs/optimized/`.");

    var file = out.resolve("report.md");
    Files.writeString(file, report.text);
    report.index(out, profile.name(), profile);
    return file;
  }

  /**
   * The report of {@code --jvm-sets}: the optimized fleet under each set of JVM options, run for run, each set's
   * means against the first set's, its hit path, and issue 38's targets, set before the run.
   */
  static Path writeJvmSets(Path out, AbRun.Profile profile, List<AbRun.VariantResult> results,
    Map<String, AbRun.Overhead> overheads, Duration wallTime, List<SidecarConfig> sets) throws IOException {
    var report = new AbReport();
    report.line("# Load A/B: JVM option sets of the optimized sidecar");
    report.line("");
    report.line("Run %s on %d cores, loopback only, %d s in all, load average at the end %s. Profile **%s**: %d "
      + "tenants x %d staff users, %d s of workload per run at time scale x%s: check-out and check-in at %s/s each, "
      + "data import at %s/s; stub modules answer after %d ms. Every run is the optimized cache "
      + "(`SIDECAR_AUTHZ_CACHE_MODE=optimized`), six fresh sidecars from the jar (no AOT cache) with the set's "
      + "options and variables; every counter is a delta over the workload's window.",
      LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")),
      Runtime.getRuntime().availableProcessors(), wallTime.toSeconds(), LoadAverage.now(), profile.name(),
      profile.tenants(), profile.usersPerTenant(), profile.durationSeconds(), profile.timeScale(),
      number(profile.rate()), number(profile.importRate()), StubModules.SERVICE_MILLIS);
    report.line("");
    sets.forEach(set -> report.line("- **%s**: `%s`", set.label(), set.describe()));
    report.line("");
    report.line("Runs in the order %s.", String.join(", ", results.stream().map(AbRun.VariantResult::name).toList()));
    report.line("");
    report.line("## Runs");
    report.line("");
    report
      .line("| run | check-out p50 / p99 ms | check-in p50 / p99 ms | errors | sidecar CPU s per 1000 user requests "
        + "| peak RSS per sidecar MB | RSS after start MB | RSS after a full GC MB | GC pauses | longest GC pause ms "
        + "| GC pause total ms |");
    report.line("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    int fleetSize = CirculationModules.ALL.size();
    for (var result : results) {
      var out0 = result.stats().get("check-out");
      var in0 = result.stats().get("check-in");
      report.line("| %s | %s | %s | %d | %.3f | %d | %s | %s | %d | %.1f | %.1f |", result.name(),
        out0 == null ? "missing" : out0.p50() + " / " + out0.p99(),
        in0 == null ? "missing" : in0.p50() + " / " + in0.p99(),
        result.stats().values().stream().mapToLong(GatlingRun.Stats::ko).sum(),
        result.sidecars().cpuSeconds() * 1000 / Math.max(1, result.userRequests()),
        result.sidecars().peakRssBytes() / fleetSize >> 20, megabytes(result.footprint().afterStartBytes()),
        megabytes(result.footprint().afterGcBytes()), result.pauses().gcPauses(), result.pauses().gcMaxMillis(),
        result.pauses().gcTotalMillis());
    }
    report.line("");
    var first = sets.getFirst().label();
    var byLabel = new java.util.LinkedHashMap<String, List<AbRun.VariantResult>>();
    sets.forEach(set -> byLabel.put(set.label(),
      results.stream().filter(r -> r.variant().equals(set.label())).toList()));
    var figures = new java.util.LinkedHashMap<String, ToDoubleFunction<AbRun.VariantResult>>();
    figures.put("check-out p50 ms", r -> r.stats().containsKey("check-out")
      ? r.stats().get("check-out").p50()
      : Double.NaN);
    figures.put("check-out p99 ms", r -> r.stats().containsKey("check-out")
      ? r.stats().get("check-out").p99()
      : Double.NaN);
    figures.put("sidecar CPU s per 1000 user requests",
      r -> r.sidecars().cpuSeconds() * 1000 / Math.max(1, r.userRequests()));
    figures.put("peak RSS per sidecar MB", r -> r.sidecars().peakRssBytes() / (double) fleetSize / (1 << 20));
    figures.put("longest GC pause ms", r -> r.pauses().gcMaxMillis());
    report.line("## Each set's mean against %s's", first);
    report.line("");
    report.line("| figure | %s |", String.join(" | ", byLabel.keySet().stream()
      .map(label -> label.equals(first) ? label : label + " | " + label + " / " + first).toList()));
    report.line("|---|%s", "---:|".repeat(2 * byLabel.size() - 1));
    for (var figure : figures.entrySet()) {
      double reference = mean(byLabel.get(first), figure.getValue());
      var cells = new ArrayList<String>();
      byLabel.forEach((label, runs) -> {
        double value = mean(runs, figure.getValue());
        cells.add(label.equals(first)
          ? "%.3f".formatted(value)
          : "%.3f | %.2f".formatted(value, value / reference));
      });
      report.line("| %s | %s |", figure.getKey(), String.join(" | ", cells));
    }
    report.line("");
    for (var variant : overheads.entrySet()) {
      hitPath(report, out, profile, variant.getKey(), variant.getValue());
    }
    report.closedLoopSideBySide(overheads);
    report.line("## Targets");
    report.line("");
    report.line("Set in issue 38 before this run, for each set against %s (the image's options when the run began).",
      first);
    report.line("");
    report.line("| target | figure | met |");
    report.line("|---|---|---|");
    double referenceCpu = mean(byLabel.get(first), figures.get("sidecar CPU s per 1000 user requests"));
    var referenceLoop = point(overheads.getOrDefault(first, AbRun.Overhead.NONE), "sidecar", 64);
    for (var entry : byLabel.entrySet()) {
      var label = entry.getKey();
      long errors = entry.getValue().stream().flatMap(r -> r.stats().values().stream())
        .mapToLong(GatlingRun.Stats::ko).sum();
      report.target(label + ": 0 errors", errors + " failed requests", errors == 0);
      if (label.equals(first)) {
        continue;
      }
      double rss = mean(entry.getValue(), figures.get("peak RSS per sidecar MB"));
      report.target(label + ": peak RSS per sidecar under the workload <= 130 MB", "%.0f MB".formatted(rss),
        rss <= 130);
      double cpu = mean(entry.getValue(), figures.get("sidecar CPU s per 1000 user requests"));
      report.target(label + ": sidecar CPU per user request <= 1.10x " + first + "'s",
        "%.3f s vs %.3f s per 1000 (%.2f)".formatted(cpu, referenceCpu, cpu / referenceCpu),
        cpu <= 1.10 * referenceCpu);
      var loop = point(overheads.getOrDefault(label, AbRun.Overhead.NONE), "sidecar", 64);
      if (loop.isPresent() && referenceLoop.isPresent()) {
        double a = loop.get().sidecarCpuPerThousand();
        double b = referenceLoop.get().sidecarCpuPerThousand();
        report.target(label + ": hit-path CPU per request (closed loop, 64 connections) <= 1.10x " + first + "'s",
          "%.3f s vs %.3f s per 1000 (%.2f)".formatted(a, b, a / b), a <= 1.10 * b);
      }
    }
    report.line("");
    report.line("Gatling's HTML reports beside this file (not committed); the sidecars' logs and GC logs in `logs/`.");
    var file = out.resolve("report.md");
    Files.writeString(file, report.text);
    report.index(out, profile.name() + ", JVM sets", profile);
    return file;
  }

  /**
   * Issue 44's targets against another build given as the baseline (the real upstream), set before its first
   * production-time run; the fixed cost is a figure beside them, not a target.
   */
  private void issue44Targets(List<AbRun.VariantResult> base, List<AbRun.VariantResult> opt) {
    double baseCpu = mean(base, r -> r.sidecars().cpuSeconds());
    double optCpu = mean(opt, r -> r.sidecars().cpuSeconds());
    target("issue 44: sidecars' CPU <= 0.5x the baseline's", "%.0f s vs %.0f s (%.2fx)".formatted(optCpu, baseCpu,
      optCpu / baseCpu), optCpu <= 0.5 * baseCpu);
    int fleetSize = CirculationModules.ALL.size();
    double baseRss = mean(base, r -> (double) (r.sidecars().peakRssBytes() / fleetSize >> 20));
    double optRss = mean(opt, r -> (double) (r.sidecars().peakRssBytes() / fleetSize >> 20));
    target("issue 44: peak RSS per sidecar <= 0.7x the baseline's", "%.0f MB vs %.0f MB (%.2fx)".formatted(optRss,
      baseRss, optRss / baseRss), optRss <= 0.7 * baseRss);
    if (base.stream().allMatch(r -> r.stats().containsKey("check-out"))
      && opt.stream().allMatch(r -> r.stats().containsKey("check-out"))) {
      double baseP99 = mean(base, r -> r.stats().get("check-out").p99());
      double optP99 = mean(opt, r -> r.stats().get("check-out").p99());
      target("issue 44: check-out p99 <= 0.1x the baseline's", "%s ms vs %s ms (%.3fx)".formatted(number(optP99),
        number(baseP99), optP99 / baseP99), optP99 <= 0.1 * baseP99);
    }
    double baseSteady = mean(base, r -> r.steady().umaPerSecond());
    double optSteady = mean(opt, r -> r.steady().umaPerSecond());
    target("issue 44: steady Keycloak decisions <= 0.1x the baseline's", "%.1f/s vs %.1f/s (%.3fx)".formatted(
      optSteady, baseSteady, optSteady / baseSteady), optSteady <= 0.1 * baseSteady);
    line("");
    line("Fixed cost (issue 44, a figure, not a target): idle cores per sidecar, optimized %.4f, baseline %.4f.",
      mean(opt, r -> r.footprint().idleCores()), mean(base, r -> r.footprint().idleCores()));
  }

  /** Issue 28's targets that this run measures (start and image size are measured apart, docs/operations.md). */
  private void issue28Targets(List<AbRun.VariantResult> opt, AbRun.Overhead overhead, int warmSecond) {
    double peakRss = mean(opt, r -> r.sidecars().peakRssBytes() / (double) CirculationModules.ALL.size()) / (1 << 20);
    if (!Double.isNaN(peakRss)) {
      target("issue 28: optimized peak RSS per sidecar under the workload <= 100 MB", "%.0f MB".formatted(peakRss),
        peakRss <= 100);
    }
    for (var stub : List.of("2-ms stub", "instant stub")) {
      var points = stub.startsWith("2") ? overhead.closedLoop() : overhead.closedLoopInstant();
      var s = points.stream().filter(p -> p.path().equals("sidecar") && p.connections() == 256).findFirst();
      var n = points.stream().filter(p -> p.path().equals("nginx") && p.connections() == 256).findFirst();
      if (s.isPresent() && n.isPresent()) {
        target("issue 28: closed loop, 256 connections, " + stub + ": sidecar >= 0.8x nginx's requests/s",
          "%.0f/s vs %.0f/s (%.2f)".formatted(s.get().requestsPerSecond(), n.get().requestsPerSecond(),
            s.get().requestsPerSecond() / n.get().requestsPerSecond()),
          s.get().requestsPerSecond() >= 0.8 * n.get().requestsPerSecond());
        target("issue 28: closed loop, 256 connections, " + stub + ": sidecar p99 <= 1.5x nginx's",
          "%.2f ms vs %.2f ms".formatted(s.get().p99Millis(), n.get().p99Millis()),
          s.get().p99Millis() <= 1.5 * n.get().p99Millis());
      }
    }
    var cpu = overhead.closedLoop().stream().filter(p -> p.path().equals("sidecar") && p.connections() == 64)
      .findFirst();
    cpu.ifPresent(point -> target("issue 28: <= 0.04 s sidecar CPU per 1000 hit-path requests (64 connections)",
      "%.3f s".formatted(point.sidecarCpuPerThousand()), point.sidecarCpuPerThousand() <= 0.04));
    double mean = mean(opt, r -> r.steady().ratesFrom(warmSecond).mean());
    double peak = mean(opt, r -> r.steady().ratesFrom(warmSecond).peakTenSeconds());
    if (!Double.isNaN(mean)) {
      target("issue 28: after the first refresh period, optimized peak 10-s UMA rate <= 2x its mean",
        "%.1f/s vs %.1f/s".formatted(peak, mean), peak <= 2 * mean);
    }
  }

  /** One variant's hit path: the open loop against nginx and the stub, then the closed loop on both stubs. */
  private static void hitPath(AbReport report, Path out, AbRun.Profile profile, String variant,
    AbRun.Overhead overhead) {
    report.line("## Hit path: %s", variant);
    report.line("");
    if (overhead.paths().isEmpty()) {
      report.line("Open loop not measured.");
    } else {
      report.line("`GET /users/{id}` of one user at %s requests/s, one path at a time, %d s each, in %d rounds of "
        + "alternating order, so each row covers %d s; measured after the first %s run with its sidecars still warm. "
        + "The stub answers after %d ms; the sidecar's decision is a cache hit.", number(profile.overheadRate()),
        profile.overheadSeconds(), profile.overheadRounds(), profile.overheadRounds() * profile.overheadSeconds(),
        variant, StubModules.SERVICE_MILLIS);
      report.line("");
      report.line("| path | requests | errors | p50 ms | p75 ms | p95 ms | p99 ms | max ms |");
      report.line("|---|---:|---:|---:|---:|---:|---:|---:|");
      for (var name : List.of("direct", "sidecar", "nginx")) {
        var stats = overhead.paths().get(name);
        report.line(stats == null
          ? "| %s | not run | | | | | | |".formatted(name)
          : "| %s | %d | %d | %d | %d | %d | %d | %d |".formatted(name, stats.total(), stats.ko(), stats.p50(),
            stats.p75(), stats.p95(), stats.p99(), stats.max()));
      }
      var added = overhead.sidecarAdded();
      report.line("");
      report.line(added.count() == 0
        ? "What the sidecar itself added: not measured (its access log is not in the compact format)."
        : ("What the sidecar itself added to these requests, from its access log (total less module time), over %d "
          + "requests: p50 %s ms, p99 %s ms, p99.9 %s ms, max %s ms.").formatted(added.count(), millis(added.p50()),
            millis(added.p99()), millis(added.p999()), millis(added.max())));
    }
    report.line("");
    for (var stub : List.of("2-ms stub", "instant stub")) {
      var points = stub.startsWith("2") ? overhead.closedLoop() : overhead.closedLoopInstant();
      report.line("### Closed loop, %s (%s)", stub, variant);
      report.line("");
      if (points.isEmpty()) {
        report.line("Not measured (wrk is not installed).");
        report.line("");
        continue;
      }
      report.line("wrk with N connections, 2 threads, %d s per point, on the same machine: each answer is followed "
        + "at once by the next request, all as one user (the fleet's `SIDECAR_FORWARD_MAX_CONNECTIONS_PER_CALLER` is "
        + "raised past N: this measures the hop, not the per-caller cap). %s", profile.closedLoopSeconds(),
        stub.startsWith("2")
          ? "The stub answers after 2 ms."
          : "The stub answers at once: the figure is the CPU-bound capacity of each path.");
      report.line("");
      report.line(
        "| path | connections | requests/s | p50 ms | p99 ms | failed | sidecar CPU s per 1000 requests | sidecar peak RSS MB |");
      report.line("|---|---:|---:|---:|---:|---:|---:|---:|");
      for (var point : points) {
        report.line("| %s | %d | %.0f | %.2f | %.2f | %d | %s | %s |", point.path(), point.connections(),
          point.requestsPerSecond(), point.p50Millis(), point.p99Millis(), point.failed(),
          Double.isNaN(point.sidecarCpuPerThousand()) ? "" : "%.3f".formatted(point.sidecarCpuPerThousand()),
          point.sidecarRssBytes() == 0 ? "" : String.valueOf(point.sidecarRssBytes() >> 20));
      }
      report.line("");
      var chart = Charts.throughput(out, points, stub + ", " + variant,
        "closed-loop-" + variant + (stub.startsWith("2") ? "" : "-instant") + ".png");
      report.line(chart.endsWith(".png") ? "![Requests per second by connections](" + chart + ")" : "Chart " + chart);
      report.line("");
    }
  }

  /** The sidecar of each variant in the closed loop, side by side: requests/s and CPU per request. */
  private void closedLoopSideBySide(Map<String, AbRun.Overhead> overheads) {
    if (overheads.size() < 2) {
      return;
    }
    line("## Closed loop, the variants' sidecars side by side");
    line("");
    line("| stub | connections | %s |", String.join(" | ", overheads.keySet().stream()
      .map(variant -> variant + " requests/s | " + variant + " CPU s per 1000").toList()));
    line("|---|---:|%s", "---:|---:|".repeat(overheads.size()));
    for (var stub : List.of("2 ms", "instant")) {
      for (var connections : ClosedLoop.CONNECTIONS) {
        var cells = new ArrayList<String>();
        for (var overhead : overheads.values()) {
          var points = stub.equals("2 ms") ? overhead.closedLoop() : overhead.closedLoopInstant();
          var point = points.stream().filter(p -> p.path().equals("sidecar") && p.connections() == connections)
            .findFirst();
          cells.add(point.map(p -> "%.0f | %.3f".formatted(p.requestsPerSecond(), p.sidecarCpuPerThousand()))
            .orElse("not measured | not measured"));
        }
        line("| %s | %d | %s |", stub, connections, String.join(" | ", cells));
      }
    }
    line("");
  }

  /** The variables a baseline's defaults file sets, as written there. */
  private static String describe(Path file) {
    try {
      var properties = new java.util.Properties();
      try (var in = Files.newBufferedReader(file)) {
        properties.load(in);
      }
      return String.join(", ", properties.stringPropertyNames().stream().sorted()
        .map(name -> "`" + name + "=" + properties.getProperty(name).trim() + "`").toList());
    } catch (IOException e) {
      return "unreadable: " + e.getMessage();
    }
  }

  /** CI's smoke check: both variants have every transaction, with requests and without errors. */
  static int check(List<AbRun.VariantResult> results) {
    int problems = 0;
    for (var result : results) {
      for (var name : TRANSACTIONS) {
        var stats = result.stats().get(name);
        if (stats == null || stats.total() == 0 || stats.ko() > 0) {
          System.out.printf("[load] check failed: %s %s: %s%n", result.name(), name, stats);
          problems++;
        }
      }
    }
    System.out.printf("[load] check: %s%n",
      problems == 0 ? "both variants complete, 0 errors" : problems + " problems");
    return problems == 0 ? 0 : 1;
  }

  /**
   * The decision keys the workload can ask, from its definition: every user asks each transaction's permission; the
   * modules' calls carry the tenant's service token, one identity per tenant.
   */
  static long workloadKeys(AbRun.Profile profile) {
    return (long) profile.tenants() * ((long) profile.usersPerTenant() * CirculationModules.USER_TRANSACTIONS.size()
      + StubModules.chainPermissions().size());
  }

  static long minimumUma(AbRun.Profile profile) {
    double ttlSeconds = profile.scale().allowTtl().toMillis() / 1000.0;
    return workloadKeys(profile) * (long) Math.ceil(profile.durationSeconds() / ttlSeconds);
  }

  static double lookupsPerThousand(AbRun.VariantResult result) {
    return result.permissionLookups() * 1000.0 / Math.max(1, result.userRequests());
  }

  private static Optional<ClosedLoop.Point> point(AbRun.Overhead overhead, String path, int connections) {
    return overhead.closedLoop().stream().filter(p -> p.path().equals(path) && p.connections() == connections)
      .findFirst();
  }

  static double keycloakCpuPerThousand(AbRun.VariantResult result) {
    return result.keycloak().cpuSeconds() * 1000 / Math.max(1, result.userRequests());
  }

  private static double mean(List<AbRun.VariantResult> runs, ToDoubleFunction<AbRun.VariantResult> figure) {
    return runs.stream().mapToDouble(figure).average().orElse(Double.NaN);
  }

  private static String windows(List<AbRun.VariantResult> results) {
    return String.join("; ", results.stream().map(r -> "%s: s %d to %d of its workload".formatted(r.name(),
      r.steady().fromSecond(), r.steady().toSecond())).toList());
  }

  private static String human(Duration duration) {
    long millis = duration.toMillis();
    if (millis % 60_000 == 0 && millis >= 60_000) {
      return millis / 60_000 + " min";
    }
    if (millis < 1000) {
      return millis + " ms";
    }
    return millis % 1000 == 0 ? millis / 1000 + " s" : number(millis / 1000.0) + " s";
  }

  private void ratio(String figure, double baseline, double optimized) {
    ratioRow(figure, number(baseline), number(optimized), baseline, optimized);
  }

  private void ratioRow(String figure, String baselineText, String optimizedText, double baseline, double optimized) {
    line("| %s | %s | %s | %s |", figure, baselineText, optimizedText,
      baseline == 0 ? "n/a" : String.format(Locale.ROOT, "%.2f", optimized / baseline));
  }

  private void target(String target, String figure, boolean met) {
    line("| %s | %s | %s |", target, figure, met ? "yes" : "**no**");
    targets++;
    if (!met) {
      missed.add(target);
    }
  }

  /**
   * One line for this run in {@code index.md} beside the report's folder, when that folder is under load/results:
   * the index lists every committed run, targets met or missed, and nothing is ever taken out of it.
   */
  private void index(Path out, String kind, AbRun.Profile profile) throws IOException {
    var index = out.getParent().resolve("index.md");
    if (!out.getParent().endsWith(Path.of("load", "results")) || !Files.exists(index)) {
      return;
    }
    var line = "| [%s](%s/report.md) | %s | x%s | %d of %d met%s |%n".formatted(out.getFileName(), out.getFileName(),
      kind, profile.timeScale(), targets - missed.size(), targets,
      missed.isEmpty() ? "" : "; missed: " + String.join("; ", missed));
    Files.writeString(index, line, StandardOpenOption.APPEND);
  }

  private static String millis(long micros) {
    return String.format(Locale.ROOT, "%.3f", micros / 1000.0);
  }

  private static String percent(double part, double whole) {
    return whole == 0 ? "n/a" : String.format(Locale.ROOT, "%.1f %%", 100 * part / whole);
  }

  private static String number(double value) {
    return value == Math.rint(value) ? String.valueOf((long) value) : String.format(Locale.ROOT, "%.1f", value);
  }

  private void line(String format, Object... args) {
    text.append(args.length == 0 ? format : String.format(Locale.ROOT, format, args)).append('\n');
  }

  private static String megabytes(long bytes) {
    return bytes < 0 ? "not measured" : String.valueOf(bytes >> 20);
  }
}
