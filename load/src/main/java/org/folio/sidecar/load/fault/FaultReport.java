package org.folio.sidecar.load.fault;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The fault run's scenarios, their targets (fixed here before any run: a miss stays a miss), the figures each run
 * gives per scenario, and the report with its line in {@code load/results/index.md}.
 */
final class FaultReport {

  /** One target: what it promises, and whether a scenario's result keeps it. */
  record Target(String text, Predicate<Result> met) {
  }

  /** One fault, injected the way {@code fault} says, and what it must keep besides the targets every scenario has. */
  record Scenario(String id, String title, String fault, List<Target> targets) {
  }

  /**
   * When a scenario's phases began (System.nanoTime): its window, the fault, the dependency's return, the end, and
   * the publication of a LOGOUT (the broker's acknowledgement; Long.MAX_VALUE: none).
   */
  record Window(long start, long faultAt, long returnedAt, long end, long logoutAt) {
  }

  /**
   * A published LOGOUT (System.nanoTime, Long.MAX_VALUE: none): the publisher's send, the broker's
   * acknowledgement (its publication: before it no consumer can see it), and the first metrics sample of the
   * probed session's sidecar that counted it applied.
   */
  record Logout(long sentAt, long publishedAt, long appliedAt) {
  }

  /**
   * Figures of scenarios i and j: lookups of a tenant's modules at mgr-tenant-entitlements during the fault, the
   * hint cache's TTL and the managers' call timeout in this run (s); bad records published, and the fewest of them
   * any sidecar counted as malformed, ignored or failed.
   */
  record Figures(long moduleLookups, double hintTtlSeconds, double managerTimeoutSeconds, long badPublished,
    long badCounted) {
  }

  /**
   * How long after its publication a LOGOUT may still find the session's grants in a sidecar's cache: the sidecar
   * learns of a logout only from Kafka. Stated from the consumer's configuration, not from a run: a connected
   * consumer has a fetch waiting at the broker, which answers it as soon as a record is appended (fetch.min.bytes
   * 1) and at the latest after fetch.max.wait.ms (500 ms, Kafka's default, which the sidecar keeps); a fetch that
   * came back empty is sent again by the next poll, which waits at most its 500-ms timeout. One of each is the
   * bound; a broker that is unreachable is not covered (scenario b).
   */
  static final Duration LOGOUT_BOUND = Duration.ofMillis(1000);

  static final Target NOTHING_LOST = new Target("0 requests lost (sent and never answered)", r -> r.lost() == 0);
  static final Target NO_WRONG_ALLOW = new Target("0 wrong allows (a logout counts from its publication + "
    + LOGOUT_BOUND.toMillis() + " ms)", r -> r.wrongAllows() == 0);
  static final Target LOGOUT_APPLIED = new Target("the LOGOUT applied by the session's sidecar within "
    + LOGOUT_BOUND.toMillis() + " ms of its publication", r -> r.logoutAppliedMillis() <= LOGOUT_BOUND.toMillis());
  static final Target NO_RESTART = new Target("0 sidecar restarts (besides one stopped on purpose)",
    r -> r.restarts() == 0);
  static final Target QUICK_RECOVERY = new Target("the last failed user request after the dependency's return "
    + "sent within 5 s of it", r -> r.recoverySeconds() <= 5);
  static final Target ALL_SERVED = new Target("100 % of user requests during the fault answered 2xx",
    r -> r.servedDuringFault()[0] == r.servedDuringFault()[1]);

  static final List<Scenario> SCENARIOS = List.of(
    new Scenario("a", "Keycloak stops and returns", "the sidecars' way to Keycloak is cut (the hop in front of it "
      + "refuses connections and drops open ones) for 60 s x F, then restored; Keycloak's process keeps running "
      + "because its in-memory database would lose the realms",
      List.of(new Target("100 % of the keys allowed before the outage served during it",
        r -> r.keysServed()[0] == r.keysServed()[1]), QUICK_RECOVERY)),
    new Scenario("b", "the Kafka broker stops and returns", "the relay in front of the broker (which it "
      + "advertises) is cut: connections dropped, new ones refused, for 60 s x F, then restored", List.of(ALL_SERVED)),
    new Scenario("c", "a module is killed and restarted", "mod-circulation's port closes (connections refused, "
      + "open ones dropped) for 60 s x F, then listens again",
      List.of(new Target("every user request during the fault answered 502, 503 or 504 (no 500, none lost)",
        r -> r.statusesDuringFault().keySet().stream().allMatch(s -> s.equals("502") || s.equals("503")
          || s.equals("504"))),
        QUICK_RECOVERY)),
    new Scenario("d", "a module answers slower than the request timeout", "mod-circulation answers 1.5 x "
      + "REQUEST_TIMEOUT late for 60 s x F",
      List.of(new Target("every user request during the fault answered within REQUEST_TIMEOUT + 2 s",
        r -> r.slowestDuringFault() <= r.requestTimeoutSeconds() + 2), QUICK_RECOVERY)),
    new Scenario("e", "a user logs out during the Keycloak outage", "as a: the way to Keycloak is cut for 60 s x F; "
      + "half-way, a second session of one staff user logs out at Keycloak and its LOGOUT event is published; that "
      + "session's token keeps calling GET /users/{id} twice a second",
      List.of(new Target("the logged-out session was probed after its logout", r -> r.probesAfterLogout() > 0),
        LOGOUT_APPLIED)),
    new Scenario("f", "a sidecar gets SIGTERM mid-load", "mod-circulation's sidecar gets SIGTERM; when it has "
      + "exited it is started again (as Kubernetes restarts the container); the load keeps going to its port",
      List.of(new Target("the restarted sidecar serves: last failed user request within 5 s of it being ready",
        r -> r.recoverySeconds() <= 5))),
    new Scenario("g", "the secret store is unavailable for longer than its cache TTL", "the secure store proxy "
      + "answers 503 to everything for 20 min x F, while SIDECAR_SECRET_CACHE_TTL is 15 min x F and service "
      + "tokens (600 s x F) are renewed during it", List.of(ALL_SERVED)),
    new Scenario("h", "an egress target answers 401 to everything", "mod-users answers 401 to every request for "
      + "60 s x F; circulation's sidecar calls it on every check-out and check-in",
      List.of(new Target("service-token grants during the fault <= tenants x (fault / "
        + "SIDECAR_REFUSED_TOKEN_MIN_AGE + 1): a 401 replaces a token at most once per minimum age",
        r -> r.tokensDuringFault() <= r.tokenGrantBound()))),
    new Scenario("i", "hint lookups fail or hang", "the staff users' calls go on and, with each of their ticks, "
      + "circulation calls mod-source-record-storage (which it does not require) by a bare-name "
      + "x-okapi-module-hint, so its sidecar needs the tenant's modules from mgr-tenant-entitlements; that lookup "
      + "answers 503 for the first half of 60 s x F and 1.5 x SIDECAR_MANAGER_TIMEOUT late for the second half "
      + "(ROUTING_DYNAMIC_ENTITLEMENTS_CACHE_TTL 30 s x F)",
      List.of(ALL_SERVED,
        new Target("lookups at mgr-tenant-entitlements during the fault <= tenants x (fault / "
          + "ROUTING_DYNAMIC_ENTITLEMENTS_CACHE_TTL + 1): a failed lookup is cached too",
          r -> r.figures().moduleLookups() <= r.hintLookupBound()),
        new Target("every hinted call during the fault answered within SIDECAR_MANAGER_TIMEOUT + 2 s",
          r -> r.slowestHinted() <= r.figures().managerTimeoutSeconds() + 2),
        new Target("hinted calls succeed again: the last failed one sent within SIDECAR_MANAGER_TIMEOUT + "
          + "ROUTING_DYNAMIC_ENTITLEMENTS_CACHE_TTL + 2 s of the return",
          r -> r.hintedRecoverySeconds() <= r.figures().managerTimeoutSeconds() + r.figures().hintTtlSeconds() + 2))),
    new Scenario("j", "bad Kafka records, then a valid one", "a second session of one staff user logs out at "
      + "Keycloak; on every topic the sidecars consume, records they cannot apply are published (not JSON, no value, "
      + "a JSON array, an unknown type, a 500-KB object without the event's fields), then the session's LOGOUT; "
      + "that session's token keeps calling GET /users/{id} twice a second; the fault's window is 60 s x F",
      List.of(ALL_SERVED, LOGOUT_APPLIED,
        new Target("every sidecar counted each bad record malformed, ignored or failed",
          r -> r.figures().badPublished() > 0 && r.figures().badCounted() == r.figures().badPublished()))));

  /** Every figure of one scenario. */
  record Result(Scenario scenario, Window window, Duration faultDuration, List<FaultLoad.Outcome> all,
    List<long[]> readiness, int tokenGrants, int tokensDuringFault, int umaCalls, int restarts, String deliberate,
    long peakRssBytes, String note, int tenants, double requestTimeoutSeconds, double refusedMinAgeSeconds,
    Logout logout, Figures figures) {

    Result with(List<FaultLoad.Outcome> outcomes) {
      return new Result(scenario, window, faultDuration, outcomes, readiness, tokenGrants, tokensDuringFault, umaCalls,
        restarts, deliberate, peakRssBytes, note, tenants, requestTimeoutSeconds, refusedMinAgeSeconds, logout,
        figures);
    }

    /** The lost requests: kind, when sent relative to the fault, how long until the client gave up, and why. */
    List<String> lostDetails() {
      return in(window.start(), window.end()).stream().filter(o -> o.status() == FaultLoad.LOST)
        .map(o -> String.format(Locale.ROOT, "%s sent %+.1f s from the fault's start, failed after %.1f s: %s",
          o.kind(), (o.sentNanos() - window.faultAt()) / 1e9, (o.answeredNanos() - o.sentNanos()) / 1e9, o.error()))
        .toList();
    }

    private List<FaultLoad.Outcome> in(long from, long to) {
      return all.stream().filter(o -> o.sentNanos() >= from && o.sentNanos() < to).toList();
    }

    private List<FaultLoad.Outcome> users(long from, long to) {
      return in(from, to).stream().filter(o -> o.kind() == FaultLoad.Kind.CHECK_OUT
        || o.kind() == FaultLoad.Kind.CHECK_IN).toList();
    }

    Map<String, Long> statuses() {
      return count(users(window.start(), window.end()));
    }

    Map<String, Long> statusesDuringFault() {
      return count(users(window.faultAt(), window.returnedAt()));
    }

    long lost() {
      return in(window.start(), window.end()).stream().filter(o -> o.status() == FaultLoad.LOST).count();
    }

    long refused() {
      return in(window.start(), window.end()).stream().filter(o -> o.status() == FaultLoad.REFUSED).count();
    }

    /**
     * A 2xx for the permission staff do not hold, or for the logged-out session's request sent once the LOGOUT's
     * propagation bound had passed since its publication.
     */
    long wrongAllows() {
      return in(window.start(), window.end()).stream().filter(o -> o.ok() && o.kind() == FaultLoad.Kind.DENIED)
        .count() + logoutGrantsAfterBound();
    }

    /** 2xx for the logged-out session's requests sent once the bound had passed since the LOGOUT's publication. */
    long logoutGrantsAfterBound() {
      return in(window.start(), window.end()).stream()
        .filter(o -> o.ok() && o.kind() == FaultLoad.Kind.LOGOUT_PROBE && o.sentNanos() >= logoutBoundEnd()).count();
    }

    /** 2xx for the logged-out session's requests sent after the LOGOUT's publication, within its bound. */
    long grantsInLogoutWindow() {
      return all.stream().filter(FaultLoad.Outcome::ok).filter(o -> o.kind() == FaultLoad.Kind.LOGOUT_PROBE
        && o.sentNanos() >= window.logoutAt() && o.sentNanos() < Math.min(logoutBoundEnd(), window.end())).count();
    }

    /** The count before the bound: every grant after the LOGOUT's publication is wrong. */
    long strictWrongAllows() {
      return wrongAllows() + grantsInLogoutWindow();
    }

    private long logoutBoundEnd() {
      return window.logoutAt() == Long.MAX_VALUE ? Long.MAX_VALUE : window.logoutAt() + LOGOUT_BOUND.toNanos();
    }

    boolean loggedOut() {
      return logout.publishedAt() != Long.MAX_VALUE;
    }

    /** From the LOGOUT's publication to the sidecar's metrics counting it applied; MAX_VALUE: never seen. */
    long logoutAppliedMillis() {
      return logout.appliedAt() == Long.MAX_VALUE || !loggedOut()
        ? Long.MAX_VALUE
        : TimeUnit.NANOSECONDS.toMillis(logout.appliedAt() - logout.publishedAt());
    }

    /** The logged-out session's first request refused (401 or 403) after the LOGOUT's publication, if any. */
    java.util.Optional<FaultLoad.Outcome> firstRefusal() {
      return all.stream().filter(o -> o.kind() == FaultLoad.Kind.LOGOUT_PROBE && o.sentNanos() >= window.logoutAt()
        && (o.status() == 401 || o.status() == 403))
        .min(java.util.Comparator.comparingLong(FaultLoad.Outcome::sentNanos));
    }

    private List<FaultLoad.Outcome> hinted(long from, long to) {
      return in(from, to).stream().filter(o -> o.kind() == FaultLoad.Kind.HINTED).toList();
    }

    Map<String, Long> hintedStatuses() {
      return count(hinted(window.start(), window.end()));
    }

    Map<String, Long> hintedStatusesDuringFault() {
      return count(hinted(window.faultAt(), window.returnedAt()));
    }

    double slowestHinted() {
      return hinted(window.faultAt(), window.returnedAt()).stream()
        .mapToDouble(o -> (o.answeredNanos() - o.sentNanos()) / 1e9).max().orElse(0);
    }

    /** Seconds from the return to the sending of the last hinted call that failed; 0 if none. */
    double hintedRecoverySeconds() {
      return hinted(window.returnedAt(), window.end()).stream().filter(o -> !o.ok())
        .mapToLong(FaultLoad.Outcome::sentNanos).max().stream()
        .mapToDouble(last -> (last - window.returnedAt()) / 1e9).findFirst().orElse(0);
    }

    long hintLookupBound() {
      return (long) (tenants * (faultDuration.toMillis() / 1000.0 / figures.hintTtlSeconds() + 1));
    }

    long deniedChecked() {
      return in(window.start(), window.end()).stream().filter(o -> o.kind() == FaultLoad.Kind.DENIED).count();
    }

    long probesAfterLogout() {
      return all.stream().filter(o -> o.kind() == FaultLoad.Kind.LOGOUT_PROBE && o.sentNanos() >= window.logoutAt()
        && o.sentNanos() < window.end()).count();
    }

    Map<String, Long> probeStatusesAfterLogout() {
      return count(all.stream().filter(o -> o.kind() == FaultLoad.Kind.LOGOUT_PROBE
        && o.sentNanos() >= window.logoutAt() && o.sentNanos() < window.end()).toList());
    }

    /** {served, all} user requests sent during the fault. */
    long[] servedDuringFault() {
      var during = users(window.faultAt(), window.returnedAt());
      return new long[]{during.stream().filter(FaultLoad.Outcome::ok).count(), during.size()};
    }

    /**
     * {served, considered}: of the (user, transaction) keys allowed before the fault and asked again during it,
     * those whose every request during the fault was answered 2xx.
     */
    long[] keysServed() {
      Set<String> before = new HashSet<>();
      users(window.start(), window.faultAt()).stream().filter(FaultLoad.Outcome::ok)
        .forEach(o -> before.add(o.user() + " " + o.kind()));
      Map<String, Boolean> during = new HashMap<>();
      for (var o : users(window.faultAt(), window.returnedAt())) {
        var key = o.user() + " " + o.kind();
        if (before.contains(key)) {
          during.merge(key, o.ok(), Boolean::logicalAnd);
        }
      }
      return new long[]{during.values().stream().filter(Boolean::booleanValue).count(), during.size()};
    }

    /** Seconds from the dependency's return to the sending of the last user request that failed; 0 if none. */
    double recoverySeconds() {
      return users(window.returnedAt(), window.end()).stream().filter(o -> !o.ok())
        .mapToLong(FaultLoad.Outcome::sentNanos).max().stream()
        .mapToDouble(last -> (last - window.returnedAt()) / 1e9).findFirst().orElse(0);
    }

    boolean recovered() {
      return recoverySeconds() < (window.end() - window.returnedAt()) / 1e9 - 3;
    }

    double slowestDuringFault() {
      return users(window.faultAt(), window.returnedAt()).stream()
        .mapToDouble(o -> (o.answeredNanos() - o.sentNanos()) / 1e9).max().orElse(0);
    }

    /** {samples with every sidecar ready, samples} during the fault. */
    long[] readyDuringFault() {
      var during = readiness.stream().filter(s -> s[0] >= window.faultAt() && s[0] < window.returnedAt()).toList();
      return new long[]{during.stream().filter(s -> s[1] == 1).count(), during.size()};
    }

    long tokenGrantBound() {
      return (long) (tenants * (faultDuration.toMillis() / 1000.0 / refusedMinAgeSeconds + 1));
    }

    List<Target> targets() {
      var targets = new ArrayList<>(List.of(NOTHING_LOST, NO_WRONG_ALLOW, NO_RESTART));
      targets.addAll(scenario.targets());
      return targets;
    }

    List<Target> missed() {
      return targets().stream().filter(t -> !t.met().test(this)).toList();
    }
  }

  private FaultReport() {
  }

  private static Map<String, Long> count(List<FaultLoad.Outcome> outcomes) {
    return outcomes.stream().collect(Collectors.groupingBy(o -> switch (o.status()) {
      case FaultLoad.LOST -> "lost";
      case FaultLoad.REFUSED -> "refused";
      default -> String.valueOf(o.status());
    }, TreeMap::new, Collectors.counting()));
  }

  static int check(List<Result> results) {
    return results.stream().allMatch(r -> r.missed().isEmpty()) ? 0 : 1;
  }

  static Path write(Path out, FaultRun.Profile profile, long warmUpSeconds, List<Result> results,
    Duration took) throws IOException {
    var md = new StringBuilder();
    int targets = results.stream().mapToInt(r -> r.targets().size()).sum();
    int met = targets - results.stream().mapToInt(r -> r.missed().size()).sum();
    md.append("# Faults under load: ").append(out.getFileName()).append("\n\n");
    md.append(String.format(Locale.ROOT, "`load/run-faults.sh%s`: profile **%s**, %d tenants x %d staff users, "
      + "%s check-outs and %s check-ins per second (open loop) plus a denied request every 4th tick, time scale "
      + "**x%s**, %d s in all. **%d of %d targets met.**%n%n",
      (profile.name().equals("default")
        ? ""
        : " --" + profile.name()) + only(results),
      profile.name(), profile.tenants(), profile.usersPerTenant(), number(profile.rate()),
      number(profile.rate()), profile.timeScale(), took.toSeconds(), met, targets));
    md.append("""
      The fleet of the A/B run (six stub modules, each behind its own packaged sidecar; a real Keycloak; \
      mgr-* stubs), with an in-process Kafka broker (the sidecars consume discovery, entitlement and logout \
      events) and FOLIO's secure store proxy (a stub, `SECRET_STORE_TYPE=FSSP`) as the secret store. One fault at \
      a time; each scenario is a window of steady load, the fault, and a window to recover (%d s, fault, %d s). \
      Everything on loopback. The first scenario started once the fleet answered steadily (at least %d s of load, \
      then until 95 %% of 10 s of user requests were 2xx; here %d s).

      **Time scale.** Every time constant is its production value times F, the faults' durations included, so a \
      compressed run keeps production's proportions (an outage of 60 s against a 10-minute cache, 20 minutes of \
      secret-store outage against a 15-minute TTL):

      | constant | production | this run |
      | --- | ---: | ---: |
      """.formatted(profile.beforeSeconds(), profile.afterSeconds(), profile.warmUpSeconds(), warmUpSeconds));
    var scale = profile.scale();
    scale.table().forEach((name, values) -> md.append("| ").append(name).append(" | ").append(human(values[0]))
      .append(" | ").append(human(values[1])).append(" |\n"));
    for (var constant : List.of(Map.entry("`SIDECAR_SECRET_CACHE_TTL`", FaultRun.SECRET_CACHE_TTL),
      Map.entry("`SIDECAR_SECRET_FAILURE_CACHE_TTL`", FaultRun.SECRET_FAILURE_TTL),
      Map.entry("`SIDECAR_REFUSED_TOKEN_MIN_AGE`", FaultRun.REFUSED_TOKEN_MIN_AGE),
      Map.entry("`ROUTING_DYNAMIC_ENTITLEMENTS_CACHE_TTL`", FaultRun.HINT_LOOKUP_TTL),
      Map.entry("outage of Keycloak, Kafka, a module (a-e, h-j)", FaultRun.OUTAGE),
      Map.entry("outage of the secret store (g)", FaultRun.SECRET_OUTAGE))) {
      md.append("| ").append(constant.getKey()).append(" | ").append(human(constant.getValue())).append(" | ")
        .append(human(scale.scaled(constant.getValue()))).append(" |\n");
    }
    md.append(
      """

        Not scaled: limits on one call's latency (`REQUEST_TIMEOUT`, set to 10 s instead of its 60-s default so \
        that scenario d's requests give up within its windows; `KC_REQUEST_TIMEOUT` 2 s, `KC_CONNECT_TIMEOUT`, the secret store's \
        and the managers' call timeouts (`SIDECAR_MANAGER_TIMEOUT` 10 s): the compressed clock does not make the \
        machine faster), the propagation bound of a logout (%d ms, below) and the shutdown \
        drain (`SIDECAR_SHUTDOWN_DELAY` 5 s, `SIDECAR_SHUTDOWN_TIMEOUT` 20 s: here no endpoint controller takes the \
        stopped pod out of rotation, the load keeps going to its port).

        **What each column means.** *Requests by status*: the staff users' check-outs and check-ins sent in the \
        scenario's window, by answer (`refused`: the connection was refused, the request never accepted; `lost`: \
        accepted and never answered, reset or no answer within REQUEST_TIMEOUT + 10 s). *Lost* counts every kind \
        of request. *Wrong allows*: 2xx for a staff user's PUT to inventory-storage (a permission staff do not hold; \
        the number checked in brackets) or, in e and j, for the logged-out session's requests sent %d ms or more \
        after its LOGOUT's publication (the broker's acknowledgement). *Logout window*: grants to that session's \
        requests sent after the publication but within those %d ms, which a sidecar that learns of logouts from \
        Kafka cannot refuse yet (upstream neither); the strict count (wrong allows counted from the publication \
        itself, as reports before 2026-11-25 did) in brackets. *Logout applied*: from the publication to the \
        first sample of the session's sidecar's `sidecar_events_total{kind="logout",outcome="applied"}` that \
        counted it (sampled every 10 ms). *Keys served*: of \
        the (user, transaction) pairs allowed before the fault and asked again during it, those answered 2xx every \
        time. *Served during the fault*: user requests answered 2xx while the fault lasted. *Recovery*: from the \
        dependency's return (f: the restarted sidecar ready) to the sending of the last user request that failed \
        (0: none failed after the return). *Ready*: readiness probes (every 500 ms, all six sidecars) that found \
        every sidecar ready during the fault. *Token grants*: client-credentials calls of the sidecars at Keycloak \
        during the fault. *Restarts*: sidecars that died unasked. *Peak RSS*: the six sidecars' resident memory, \
        summed, highest sample.

        **The logout bound.** A sidecar learns of a logout only from Kafka. A connected consumer has a fetch \
        waiting at the broker, which answers it as soon as a record is appended (`fetch.min.bytes` 1) and at the \
        latest after `fetch.max.wait.ms` (500 ms, Kafka's default, which the sidecar keeps); a fetch that came back \
        empty is sent again by the next poll, which waits at most its 500-ms timeout. One of each, %d ms, is the \
        bound stated before any run ([docs/security.md](../../../docs/security.md)); it is not scaled.

        ## Targets (set before the first run)

        Each set before the first run of its scenario (i, j and the logout bound: 2026-11-25). Every scenario: 0 \
        lost, 0 wrong allows, 0 sidecar restarts (f: besides the one stopped on purpose). And:

        """
        .formatted(LOGOUT_BOUND.toMillis(), LOGOUT_BOUND.toMillis(), LOGOUT_BOUND.toMillis(),
          LOGOUT_BOUND.toMillis()));
    for (var scenario : SCENARIOS) {
      md.append("- **").append(scenario.id()).append("** ").append(scenario.title()).append(": ")
        .append(scenario.targets().stream().map(Target::text).collect(Collectors.joining("; "))).append("\n");
    }
    md.append("\n## Results\n\n| scenario | requests by status | lost | refused | wrong allows (checked) "
      + "| logout window (strict) | logout applied | keys served | served during the fault | recovery "
      + "| ready during the fault | token grants | restarts | peak RSS | targets |\n"
      + "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (var r : results) {
      var keys = r.keysServed();
      var served = r.servedDuringFault();
      var ready = r.readyDuringFault();
      var missed = r.missed();
      md.append(String.format(Locale.ROOT, "| %s %s | %s | %d | %d | %d (%d) | %s | %s | %s | %s | %s | %s | %d "
        + "| %d%s | %d MB | %s |%n", r.scenario().id(), r.scenario().title(), statuses(r.statuses()), r.lost(),
        r.refused(), r.wrongAllows(), r.deniedChecked() + r.probesAfterLogout(),
        r.loggedOut() ? r.grantsInLogoutWindow() + " (" + r.strictWrongAllows() + ")" : "n/a", applied(r),
        fraction(keys), fraction(served),
        r.recovered() ? String.format(Locale.ROOT, "%.1f s", r.recoverySeconds()) : "not within the window",
        fraction(ready), r.tokensDuringFault(), r.restarts(), r.deliberate().isEmpty() ? "" : " (+1 on purpose)",
        r.peakRssBytes() / (1024 * 1024), missed.isEmpty()
          ? "all " + r.targets().size() + " met"
          : (r.targets().size() - missed.size()) + " of " + r.targets().size() + "; missed: "
            + missed.stream().map(Target::text).collect(Collectors.joining("; "))));
    }
    md.append("\n## Scenarios\n\n");
    for (var r : results) {
      md.append("### ").append(r.scenario().id()).append(". ").append(r.scenario().title()).append("\n\n")
        .append("Fault: ").append(r.scenario().fault()).append(String.format(Locale.ROOT,
          " (here %s).%n%n", human(r.faultDuration())));
      md.append("- user requests during the fault by status: ").append(statuses(r.statusesDuringFault()))
        .append("; all of the window: ").append(statuses(r.statuses())).append("\n");
      md.append(String.format(Locale.ROOT, "- slowest answer to a user request during the fault: %.2f s "
        + "(REQUEST_TIMEOUT %.1f s)%n", r.slowestDuringFault(), r.requestTimeoutSeconds()));
      md.append(String.format(Locale.ROOT, "- Keycloak during the scenario: %d token grants (%d during the fault), "
        + "%d UMA decision calls%n", r.tokenGrants(), r.tokensDuringFault(), r.umaCalls()));
      if (r.loggedOut()) {
        md.append("- the logged-out session's requests after the logout, by status: ")
          .append(statuses(r.probeStatusesAfterLogout())).append("\n");
        var logout = r.logout();
        md.append(String.format(Locale.ROOT, "- the LOGOUT: acknowledged by the broker %d ms after the publisher's "
          + "send; counted applied by the session's sidecar %s after the acknowledgement; ",
          TimeUnit.NANOSECONDS.toMillis(logout.publishedAt() - logout.sentAt()), applied(r)));
        md.append(r.firstRefusal().map(o -> String.format(Locale.ROOT, "the session's first request refused "
          + "(%d) was sent %d ms after the acknowledgement and answered %d ms after it", o.status(),
          TimeUnit.NANOSECONDS.toMillis(o.sentNanos() - logout.publishedAt()),
          TimeUnit.NANOSECONDS.toMillis(o.answeredNanos() - logout.publishedAt()))).orElse("no request of the "
            + "session was refused with 401 or 403"));
        md.append(String.format(Locale.ROOT, "; grants to the session within the %d-ms bound: %d, after it: %d%n",
          LOGOUT_BOUND.toMillis(), r.grantsInLogoutWindow(), r.logoutGrantsAfterBound()));
      }
      if (r.scenario().id().equals("i")) {
        md.append(String.format(Locale.ROOT, "- hinted calls during the fault by status: %s; all of the window: %s; "
          + "slowest during the fault %.2f s; the last failed one sent %.1f s after the return%n",
          statuses(r.hintedStatusesDuringFault()), statuses(r.hintedStatuses()), r.slowestHinted(),
          r.hintedRecoverySeconds()));
        md.append(String.format(Locale.ROOT, "- lookups of a tenant's modules at mgr-tenant-entitlements during the "
          + "fault: %d (bound %d: %d tenants, fault %s, ROUTING_DYNAMIC_ENTITLEMENTS_CACHE_TTL %.1f s)%n",
          r.figures().moduleLookups(), r.hintLookupBound(), r.tenants(), human(r.faultDuration()),
          r.figures().hintTtlSeconds()));
      }
      r.lostDetails().stream().limit(10).forEach(lost -> md.append("- lost: ").append(lost).append("\n"));
      if (!r.note().isEmpty()) {
        md.append("- ").append(r.note()).append("\n");
      }
      var missed = r.missed();
      md.append("- targets: ").append(missed.isEmpty()
        ? "all met"
        : "missed: "
          + missed.stream().map(Target::text).collect(Collectors.joining("; ")))
        .append("\n\n");
    }
    md.append("""
      ## Limits

      - Everything shares two cores: the load generator, Keycloak, Kafka, six sidecars and the stubs.
      - Keycloak and Kafka are made unreachable (connections refused and dropped) rather than stopped: the \
      in-memory Keycloak would lose its realms, the in-process broker cannot be restarted. A process that hangs \
      (accepts, never answers) is not covered.
      - The stub modules' chains turn any failed call into a 500 of circulation's: a user status of 500 in c, d \
      or h is the stub's, the sidecars' own answers are in their access lines (`logs/`).
      """);
    var report = out.resolve("report.md");
    Files.writeString(report, md);
    index(out, profile, met, targets, results);
    return report;
  }

  /** Adds the run to the fault runs' table of {@code load/results/index.md}, when the report lands there. */
  private static void index(Path out, FaultRun.Profile profile, int met, int targets, List<Result> results)
    throws IOException {
    var index = out.getParent().resolve("index.md");
    if (!out.getParent().endsWith(Path.of("load", "results")) || !Files.exists(index)) {
      return;
    }
    var missed = results.stream().flatMap(r -> r.missed().stream().map(t -> r.scenario().id() + ": " + t.text()))
      .collect(Collectors.joining("; "));
    var line = String.format(Locale.ROOT, "| [%s](%s/report.md) | %s | x%s | %s |", out.getFileName(),
      out.getFileName(), profile.name(), profile.timeScale(), met + " of " + targets + " met"
        + (missed.isEmpty() ? "" : "; missed: " + missed));
    var lines = new ArrayList<>(Files.readAllLines(index));
    int section = lines.indexOf(FAULT_SECTION);
    if (section < 0) {
      lines.add("");
      lines.add(FAULT_SECTION);
      lines.add("");
      lines.add("| report | profile | time scale | targets |");
      lines.add("|---|---|---|---|");
      lines.add(line);
    } else {
      // after the last row of the section's table
      int at = section + 1;
      while (at < lines.size() && !lines.get(at).startsWith("|") && !lines.get(at).startsWith("## ")) {
        at++;
      }
      while (at < lines.size() && lines.get(at).startsWith("|")) {
        at++;
      }
      lines.add(at, line);
    }
    Files.writeString(index, String.join("\n", lines) + "\n");
  }

  static final String FAULT_SECTION = "## Fault runs (`load/run-faults.sh`)";

  /** The {@code --only} of a run that left scenarios out, so its report says which it ran. */
  private static String only(List<Result> results) {
    return results.size() == SCENARIOS.size()
      ? ""
      : " --only " + results.stream().map(r -> r.scenario().id()).collect(Collectors.joining());
  }

  private static String applied(Result r) {
    if (!r.loggedOut()) {
      return "n/a";
    }
    long millis = r.logoutAppliedMillis();
    return millis == Long.MAX_VALUE ? "not within 5 s" : millis + " ms";
  }

  private static String statuses(Map<String, Long> statuses) {
    return statuses.isEmpty()
      ? "none"
      : statuses.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue())
        .collect(Collectors.joining(", "));
  }

  private static String fraction(long[] part) {
    return part[1] == 0
      ? "n/a"
      : String.format(Locale.ROOT, "%d/%d (%.0f %%)", part[0], part[1],
        100.0 * part[0] / part[1]);
  }

  private static String human(Duration duration) {
    long millis = duration.toMillis();
    return millis % 1000 == 0 ? millis / 1000 + " s" : String.format(Locale.ROOT, "%.2f s", millis / 1000.0);
  }

  private static String number(double value) {
    return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
  }
}
