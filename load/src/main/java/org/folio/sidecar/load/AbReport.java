package org.folio.sidecar.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.folio.sidecar.testkit.CountingHop.Kind;

/** Writes report.md of an A/B run and judges it against the targets (figures, not test asserts). */
final class AbReport {

  static final List<String> TRANSACTIONS = List.of("check-out", "check-in", "import");
  /** The optimized cache's allow TTL (SIDECAR_AUTHZ_CACHE_ALLOW_TTL default): a decision is asked once per TTL. */
  static final int ALLOW_TTL_SECONDS = 300;

  private final StringBuilder text = new StringBuilder();

  private AbReport() {
  }

  static Path write(Path out, AbRun.Profile profile, List<AbRun.VariantResult> results,
                    AbRun.Overhead overhead, Duration wallTime, int refreshes, int refreshFailures)
    throws IOException {
    var report = new AbReport();
    var base = results.get(0);
    var opt = results.get(1);
    report.line("# Load A/B: folio-caching-sidecar against the upstream-like baseline");
    report.line("");
    report.line("Run %s on %d cores, loopback only, %d s in all. Profile **%s**: %d tenants x %d staff users, %d s of "
        + "workload per variant: check-out and check-in at %s/s each, data import at %s/s. Access tokens live %d s; "
        + "users refresh every 70 %% of that, their first refreshes spread evenly (%d refreshes, %d failed), keeping "
        + "their session. Stub modules answer after %d ms. Each sidecar: `%s`.",
      LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")),
      Runtime.getRuntime().availableProcessors(), wallTime.toSeconds(), profile.name(), profile.tenants(),
      profile.usersPerTenant(), profile.durationSeconds(), number(profile.rate()), number(profile.importRate()),
      profile.tokenLifespanSeconds(), refreshes, refreshFailures, AbRun.STUB_SERVICE_MILLIS, AbRun.SIDECAR_JVM_OPTIONS);
    report.line("");
    report.line("- **baseline**: `%s` with `SIDECAR_AUTHZ_CACHE_MODE=legacy` (upstream v3.0.18's cache: `exp` in the "
      + "key, 50 entries, grants only, no single flight).", base.command());
    report.line("- **optimized**: `%s` with the default cache.", opt.command());
    report.line("");
    report.line("A check-out is one user request to circulation's sidecar; circulation then makes 7 calls through its "
      + "sidecar's egress to the users, feesfines, inventory and inventory-storage sidecars, each authorized at "
      + "ingress with the tenant's service token. A check-in likewise (7 calls). An import sends a 4 KB record to "
      + "source-record-storage (reached by route override) and one to inventory-storage.");
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
    report.line("| variant | UMA decisions | distinct decision keys | minimum possible | UMA/s, last third | service tokens | realm keys | other |");
    report.line("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (var result : results) {
      report.line("| %s | %d | %d | %d | %.1f | %d | %d | %d |", result.name(), result.keycloakCalls().get(Kind.UMA),
        result.distinctDecisionKeys(), minimumUma(result, profile), result.steadyUmaPerSecond(),
        result.keycloakCalls().get(Kind.TOKEN),
        result.keycloakCalls().get(Kind.KEYS), result.keycloakCalls().get(Kind.OTHER)
          + result.keycloakCalls().get(Kind.EXCHANGE) + result.keycloakCalls().get(Kind.INTROSPECT));
    }
    report.line("");
    report.line("Distinct decision keys: the different (realm, client, subject, session, permission) the UMA calls asked "
      + "about. Minimum possible: distinct keys x ceil(workload / allow TTL of %d s), what a cache that never asks "
      + "twice within its TTL needs. UMA/s, last third: the rate over the last third of the workload, once every "
      + "cache has met every key it will see: what a long-running fleet costs Keycloak, apart from a cold cache's "
      + "one-off cost. A run shorter than the TTL pays the optimized cache's whole one-off cost and none of its "
      + "savings after the TTL; the baseline's calls grow with the run's length.", ALLOW_TTL_SECONDS);
    report.line("");

    report.line("## Decision cache, summed over the 6 sidecars");
    report.line("");
    report.line("| variant | hits | misses | hit ratio |");
    report.line("|---|---:|---:|---:|");
    for (var result : results) {
      var hm = result.cacheHitsMisses();
      report.line(hm == null ? "| %s | n/a | n/a | n/a |".formatted(result.name())
        : "| %s | %d | %d | %.1f %% |".formatted(result.name(), hm[0], hm[1], 100.0 * hm[0] / Math.max(1, hm[0] + hm[1])));
    }
    report.line("");

    report.line("## Time the sidecars added, from their access logs");
    report.line("");
    report.line("Every request each sidecar handled during the workload, ingress and egress: its total time less the "
      + "module's (on egress, the target's) time. This is where a decision-cache miss shows: a Keycloak call inside "
      + "the sidecar's own time.");
    report.line("");
    report.line("| variant | requests | p50 ms | p99 ms | p99.9 ms | max ms |");
    report.line("|---|---:|---:|---:|---:|---:|");
    for (var result : results) {
      var added = result.sidecarsAdded();
      report.line(added.count() == 0 ? "| %s | n/a (another log format) | | | | |".formatted(result.name())
        : "| %s | %d | %s | %s | %s | %s |".formatted(result.name(), added.count(), millis(added.p50()),
          millis(added.p99()), millis(added.p999()), millis(added.max())));
    }
    report.line("");

    report.line("## Resources during the workload");
    report.line("");
    report.line("| variant | sidecars CPU s (6 processes) | sidecars peak RSS MB (sum of 6) | Keycloak CPU s | Keycloak peak RSS MB |");
    report.line("|---|---:|---:|---:|---:|");
    for (var result : results) {
      report.line("| %s | %.1f | %d | %.1f | %d |", result.name(), result.sidecars().cpuSeconds(),
        result.sidecars().peakRssBytes() >> 20, result.keycloak().cpuSeconds(), result.keycloak().peakRssBytes() >> 20);
    }
    report.line("");

    report.line("## Optimized / baseline");
    report.line("");
    report.line("| figure | baseline | optimized | optimized / baseline |");
    report.line("|---|---:|---:|---:|");
    for (var name : List.of("check-out", "check-in")) {
      var b = base.stats().get(name);
      var o = opt.stats().get(name);
      if (b != null && o != null) {
        report.ratio(name + " p50 ms", b.p50(), o.p50());
        report.ratio(name + " p95 ms", b.p95(), o.p95());
        report.ratio(name + " p99 ms", b.p99(), o.p99());
      }
    }
    if (base.sidecarsAdded().count() > 0 && opt.sidecarsAdded().count() > 0) {
      report.ratioMillis("time added per sidecar pass, p50 ms", base.sidecarsAdded().p50(), opt.sidecarsAdded().p50());
      report.ratioMillis("time added per sidecar pass, p99 ms", base.sidecarsAdded().p99(), opt.sidecarsAdded().p99());
    }
    report.ratio("UMA decisions", base.keycloakCalls().get(Kind.UMA), opt.keycloakCalls().get(Kind.UMA));
    report.ratio("sidecars CPU s", base.sidecars().cpuSeconds(), opt.sidecars().cpuSeconds());
    report.ratio("Keycloak CPU s", base.keycloak().cpuSeconds(), opt.keycloak().cpuSeconds());
    report.ratio("sidecars peak RSS MB", base.sidecars().peakRssBytes() >> 20, opt.sidecars().peakRssBytes() >> 20);
    report.line("");

    report.line("## Route override");
    report.line("");
    report.line("Requests for source-record-storage that reached its discovered location (the shared deployment) "
      + "instead of the override: baseline %d, optimized %d.", base.discoveryHits(), opt.discoveryHits());
    report.line("");

    report.line("## Hit-path overhead");
    report.line("");
    if (overhead.paths().isEmpty()) {
      report.line("Not measured.");
    } else {
      report.line("`GET /users/{id}` of one user at %s requests/s, one path at a time, %d s each, in %d rounds of "
        + "alternating order (nginx, sidecar, direct, then direct, sidecar, nginx, ...), so each row covers %d s. The "
        + "stub answers after %d ms; the sidecar's decision is a cache hit.", number(profile.overheadRate()),
        profile.overheadSeconds(), profile.overheadRounds(), profile.overheadRounds() * profile.overheadSeconds(),
        AbRun.STUB_SERVICE_MILLIS);
      report.line("");
      report.line("| path | requests | errors | p50 ms | p75 ms | p95 ms | p99 ms | max ms |");
      report.line("|---|---:|---:|---:|---:|---:|---:|---:|");
      for (var name : List.of("direct", "sidecar", "nginx")) {
        var stats = overhead.paths().get(name);
        report.line(stats == null ? "| %s | not run | | | | | | |".formatted(name)
          : "| %s | %d | %d | %d | %d | %d | %d | %d |".formatted(name, stats.total(), stats.ko(), stats.p50(),
            stats.p75(), stats.p95(), stats.p99(), stats.max()));
      }
      var added = overhead.sidecarAdded();
      report.line("");
      report.line("Gatling's figures hold whole milliseconds and every stall of the shared machine. What the sidecar "
        + "itself added to these requests, from its access log (total less module time), over %d requests: p50 %s ms, "
        + "p99 %s ms, p99.9 %s ms, max %s ms.", added.count(), millis(added.p50()), millis(added.p99()),
        millis(added.p999()), millis(added.max()));
    }
    report.line("");

    report.line("## Targets");
    report.line("");
    report.line("| target | figure | met |");
    report.line("|---|---|---|");
    long baseUma = base.keycloakCalls().get(Kind.UMA);
    long optUma = opt.keycloakCalls().get(Kind.UMA);
    report.target("optimized UMA calls <= 1/10 of baseline", "%d vs %d (%s)".formatted(optUma, baseUma,
      percent(optUma, baseUma)), optUma * 10 <= baseUma);
    report.target("steady state: optimized UMA/s <= 1/10 of baseline", "%.1f/s vs %.1f/s".formatted(
      opt.steadyUmaPerSecond(), base.steadyUmaPerSecond()), opt.steadyUmaPerSecond() * 10 <= base.steadyUmaPerSecond());
    long minimum = minimumUma(opt, profile);
    report.target("optimized UMA calls within 1.1x of the minimum possible", "%d vs minimum %d".formatted(optUma, minimum),
      optUma <= Math.ceil(minimum * 1.1));
    var bOut = base.stats().get("check-out");
    var oOut = opt.stats().get("check-out");
    if (bOut != null && oOut != null) {
      report.target("check-out p50 >= 30 % lower than baseline", "%d ms vs %d ms (%s lower)".formatted(oOut.p50(),
        bOut.p50(), percent(bOut.p50() - oOut.p50(), bOut.p50())), oOut.p50() <= bOut.p50() * 0.7);
    }
    long errors = results.stream().flatMap(r -> r.stats().values().stream()).mapToLong(GatlingRun.Stats::ko).sum()
      + overhead.paths().values().stream().mapToLong(GatlingRun.Stats::ko).sum();
    report.target("0 errors", errors + " failed requests", errors == 0);
    var sidecar = overhead.paths().get("sidecar");
    var nginx = overhead.paths().get("nginx");
    if (sidecar != null && nginx != null) {
      report.target("sidecar hit-path p99 within 1.5x of nginx's", "%d ms vs %d ms".formatted(sidecar.p99(), nginx.p99()),
        sidecar.p99() <= nginx.p99() * 1.5);
    }
    report.line("");
    report.line("Gatling's HTML reports: `gatling-baseline/`, `gatling-optimized/`, `gatling-overhead/` beside this file "
      + "(not committed); logs in `logs/`, the sidecars' in `logs/baseline/` and `logs/optimized/`.");

    var file = out.resolve("report.md");
    Files.writeString(file, report.text);
    return file;
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
    System.out.printf("[load] check: %s%n", problems == 0 ? "both variants complete, 0 errors" : problems + " problems");
    return problems == 0 ? 0 : 1;
  }

  static long minimumUma(AbRun.VariantResult result, AbRun.Profile profile) {
    return result.distinctDecisionKeys() * (long) Math.ceil((double) profile.durationSeconds() / ALLOW_TTL_SECONDS);
  }

  private void ratio(String figure, double baseline, double optimized) {
    ratioRow(figure, number(baseline), number(optimized), baseline, optimized);
  }

  private void ratioMillis(String figure, long baselineMicros, long optimizedMicros) {
    ratioRow(figure, millis(baselineMicros), millis(optimizedMicros), baselineMicros, optimizedMicros);
  }

  private void ratioRow(String figure, String baselineText, String optimizedText, double baseline, double optimized) {
    line("| %s | %s | %s | %s |", figure, baselineText, optimizedText,
      baseline == 0 ? "n/a" : String.format(Locale.ROOT, "%.2f", optimized / baseline));
  }

  private void target(String target, String figure, boolean met) {
    line("| %s | %s | %s |", target, figure, met ? "yes" : "**no**");
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
}
