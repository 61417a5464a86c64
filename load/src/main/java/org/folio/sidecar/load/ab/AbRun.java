package org.folio.sidecar.load.ab;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.folio.sidecar.load.cli.Args;
import org.folio.sidecar.load.cli.Command;
import org.folio.sidecar.load.fleet.CirculationModules;
import org.folio.sidecar.load.fleet.FleetPorts;
import org.folio.sidecar.load.fleet.Nginx;
import org.folio.sidecar.load.fleet.ShippedJvmOptions;
import org.folio.sidecar.load.fleet.SidecarConfig;
import org.folio.sidecar.load.fleet.SidecarFleet;
import org.folio.sidecar.load.fleet.StubModules;
import org.folio.sidecar.load.fleet.TimeScale;
import org.folio.sidecar.load.keycloak.LoadRealms;
import org.folio.sidecar.load.keycloak.UserTokens;
import org.folio.sidecar.load.measure.AddedTime;
import org.folio.sidecar.load.measure.ClosedLoop;
import org.folio.sidecar.load.measure.Footprint;
import org.folio.sidecar.load.measure.JvmPauses;
import org.folio.sidecar.load.measure.ProcessMeter;
import org.folio.sidecar.testkit.CountingHop;
import org.folio.sidecar.testkit.FolioRealms;
import org.folio.sidecar.testkit.FreePorts;
import org.folio.sidecar.testkit.KafkaBroker;
import org.folio.sidecar.testkit.KeycloakServer;
import org.folio.sidecar.testkit.TcpProxy;
import org.folio.sidecar.testkit.TestTenant;

/**
 * The A/B load run (load/run-ab.sh): one real Keycloak with N tenant realms, six stub modules each behind its
 * own sidecar, the circulation workload from Gatling against the baseline fleet and then against the optimized
 * one, the hit-path overhead against the stub, the sidecar and nginx, and a report of both. Stops by itself.
 */
public final class AbRun {

  /**
   * The size of a run. The default fits 10 minutes on 2 cores, quick 3 minutes; tiny is CI's smoke run. Every time
   * constant of both fleets and of the workload is its production value times {@code timeScale} ({@link TimeScale}).
   */
  record Profile(String name, int tenants, int usersPerTenant, int productionSeconds, double rate, double importRate,
    double timeScale, double overheadRate, int overheadSeconds, int overheadRounds, int warmUpSeconds,
    int closedLoopSeconds) {

    Profile withTimeScale(double factor) {
      return new Profile(name, tenants, usersPerTenant, productionSeconds, rate, importRate, factor, overheadRate,
        overheadSeconds, overheadRounds, warmUpSeconds, closedLoopSeconds);
    }

    TimeScale scale() {
      return new TimeScale(timeScale);
    }

    /** The workload's length: the production time it stands for, scaled. */
    int durationSeconds() {
      return (int) Math.round(productionSeconds * timeScale);
    }

    int tokenLifespanSeconds() {
      return (int) scale().tokenLifespan().toSeconds();
    }

    /**
     * The window over which an idle fleet's CPU is read: a minute of production time, scaled like every timer the
     * window would catch, and never under 5 s, so a compressed run still reads whole samples.
     */
    Duration idleWindow() {
      return Duration.ofMillis(Math.max(5_000, Math.round(60_000 * timeScale)));
    }
  }

  /**
   * One variant's hit-path overhead: Gatling's figures per path, what the sidecar's access log says it added, and
   * the closed loop on the 2-ms stub and on a stub that answers at once (the CPU-bound capacity).
   */
  record Overhead(Map<String, GatlingRun.Stats> paths, AddedTime.Percentiles sidecarAdded,
    List<ClosedLoop.Point> closedLoop, List<ClosedLoop.Point> closedLoopInstant) {
    static final Overhead NONE = new Overhead(Map.of(), AddedTime.Percentiles.NONE, List.of(), List.of());
  }

  /**
   * The users' tokens come from their tenant's login client ({@code <tenant>-login-application}); the modules'
   * service tokens from another client. UMA calls made with the former are what users' sessions cost.
   */
  private static final String SESSION_CLIENT_SUFFIX = "-login-application";

  /**
   * One fleet's run of the workload. Every counter is a delta over the workload's window (warm-up excluded).
   * {@code name} tells the run ("baseline, run 2"); {@code variant} is "baseline" or "optimized".
   */
  record VariantResult(String variant, String name, String command, String version,
    Map<String, GatlingRun.Stats> stats,
    Map<CountingHop.Kind, Integer> keycloakCalls, int distinctDecisionKeys, int sessionDecisionCalls,
    int sessionUserQuestions, long[] cacheHitsMisses,
    SteadyState.Window steady, ProcessMeter.Usage sidecars, ProcessMeter.Usage keycloak,
    long discoveryHits, long permissionLookups, AddedTime.Percentiles sidecarsAdded, JvmPauses pauses,
    Footprint footprint) {

    /** Requests the workload sent (check-outs, check-ins, imports), the base of the per-request costs. */
    long userRequests() {
      return stats.values().stream().filter(s -> AbReport.TRANSACTIONS.contains(s.name()))
        .mapToLong(GatlingRun.Stats::total).sum();
    }
  }

  static final Map<String, Profile> PROFILES = Map.of(
    // 30 production minutes (180 s at x0.1): three allow TTLs, so the steady state includes refresh-ahead
    "default", new Profile("default", 60, 3, 1800, 6, 3, 0.1, 1000, 4, 4, 10, 10),
    // 15 production minutes (45 s at x0.05)
    "quick", new Profile("quick", 16, 2, 900, 4, 1.5, 0.05, 500, 3, 2, 5, 5),
    // CI's smoke run (15 s at x0.03): that both fleets complete the workload, not figures
    "tiny", new Profile("tiny", 3, 2, 500, 2, 1, 0.03, 100, 2, 2, 3, 2));

  private AbRun() {
  }

  public static void main(String[] args) {
    Command.exit(args, AbRun::run);
  }

  private static int run(List<String> args) throws Exception {
    var chosen = PROFILES.get(args.contains("--tiny") ? "tiny" : args.contains("--quick") ? "quick" : "default");
    var profile = Args.option(args, "--time-scale").map(Double::parseDouble).map(chosen::withTimeScale).orElse(chosen);
    // two runs (A B) where four (A B B A) would not fit the time at hand: CI's smoke run, a production-scale run
    int runs = Args.option(args, "--runs").map(Integer::parseInt).orElse(profile.name().equals("tiny") ? 2 : 4);
    if (runs != 2 && runs != 4) {
      throw new IllegalArgumentException("--runs must be 2 (baseline, optimized) or 4 (A B B A), got " + runs);
    }
    var baselineCommand = Args.option(args, "--baseline-cmd").map(command -> List.of(command.trim().split("\\s+")));
    // another build's production defaults, scaled like legacy mode's (which come from its own mapping)
    var baselineDefaults = Args.option(args, "--baseline-defaults").map(Path::of);
    if (baselineDefaults.isPresent() && baselineCommand.isEmpty()) {
      throw new IllegalArgumentException("--baseline-defaults belongs to a --baseline-cmd");
    }
    // the optimized fleet under each set of JVM options instead of baseline and optimized (issue 38): the sets in the
    // file's order, then reversed with --runs 4 (A B B A), so no set always meets the warmer Keycloak
    var jvmSets = Args.option(args, "--jvm-sets").map(Path::of).map(AbRun::jvmSets).orElse(List.of());
    if (!jvmSets.isEmpty() && baselineCommand.isPresent()) {
      throw new IllegalArgumentException("--jvm-sets compares option sets of this build; it takes no --baseline-cmd");
    }
    var scenario = Args.option(args, "--scenario").orElse("circulation");
    if (!List.of("circulation", "sip2").contains(scenario)) {
      throw new IllegalArgumentException("--scenario takes circulation or sip2, got " + scenario);
    }
    var project = Path.of("").toAbsolutePath();
    var out = Args.out(args, Args.now("yyyyMMdd-HHmmss"));
    Files.createDirectories(out.resolve("logs"));
    long started = System.nanoTime();
    log("profile %s: %d tenants x %d users, %d s per variant at time scale x%s (%s of production time), results in %s",
      profile.name(), profile.tenants(), profile.usersPerTenant(), profile.durationSeconds(), profile.timeScale(),
      profile.scale().production(Duration.ofSeconds(profile.durationSeconds())), out);

    var keycloak = KeycloakServer.get();
    log("Keycloak ready after %d s; provisioning %d realms", elapsed(started), profile.tenants());
    new FolioRealms(keycloak.admin()).provisionAdminClient(LoadRealms.ADMIN_SECRET);
    var tenants = new ArrayList<String>();
    for (int i = 1; i <= profile.tenants(); i++) {
      tenants.add(LoadRealms.tenantName(i));
    }
    var users = provision(new LoadRealms(keycloak.admin()), tenants, profile);
    var warmUser = new LoadRealms(keycloak.admin()).provision(WarmUp.TENANT, 1, 600).getFirst();
    log("realms ready after %d s: %d users", elapsed(started), users.size());

    var ports = FleetPorts.allocate();
    int trapPort = FreePorts.next();
    int managersPort = FreePorts.next();
    int tokensPort = FreePorts.next();
    var srs = CirculationModules.SOURCE_RECORD_STORAGE.name();
    // discovery points at the shared deployment; the DB-heavy module's real home is reached by override only
    ports.discovery().put(srs, "http://127.0.0.1:" + trapPort);
    var overrides = Map.of(CirculationModules.INVENTORY.name(),
      Map.of("SIDECAR_ROUTE_OVERRIDES", srs + "=http://127.0.0.1:" + ports.sidecars().get(srs)));

    try (var stubs = new StubModules(StubModules.SERVICE_MILLIS);
      var tokens = new UserTokens(keycloak.admin(), users)) {
      for (var module : CirculationModules.ALL) {
        stubs.startModule(module.name(), ports.modules().get(module.name()), ports.discovery().get(module.name()));
      }
      stubs.startDiscoveryTrap(trapPort);
      var entitled = new ArrayList<>(tenants);
      entitled.add(WarmUp.TENANT);
      stubs.startManagers(managersPort, ports.discovery(), entitled);
      tokens.start(tokensPort);
      var platform = new SidecarFleet.Platform(keycloak.hop().url(), "http://127.0.0.1:" + managersPort, entitled,
        LoadRealms.ADMIN_SECRET, TestTenant.SERVICE_SECRET);
      var workload = new LinkedHashMap<String, String>();
      workload.put("load.tokens", "http://127.0.0.1:" + tokensPort + "/tokens");
      workload.put("load.circulation", ports.discovery().get(CirculationModules.CIRCULATION.name()));
      workload.put("load.inventory", ports.discovery().get(CirculationModules.INVENTORY.name()));
      workload.put("load.rate", String.valueOf(profile.rate()));
      workload.put("load.import-rate", String.valueOf(profile.importRate()));
      workload.put("load.duration", String.valueOf(profile.durationSeconds()));
      if (scenario.equals("sip2")) {
        workload.put("load.scenario", "sip2");
        workload.put("load.keycloak", keycloak.hop().url());
        workload.put("load.users", ports.discovery().get(CirculationModules.USERS.name()));
        workload.put("load.login-secret", TestTenant.LOGIN_SECRET);
        workload.put("load.password", TestTenant.PASSWORD);
      }

      // upstream reports itself unready without a Kafka broker: with another build as baseline both fleets get one
      var kafka = baselineCommand.map(command -> {
        var proxy = new TcpProxy(FreePorts.next());
        var bootstrap = KafkaBroker.start(List.of(), proxy);
        log("Kafka broker for the baseline build at %s", bootstrap);
        return Map.of("KAFKA_HOST", "localhost", "KAFKA_PORT", String.valueOf(proxy.port()));
      }).orElse(Map.of());

      var restarts = new FleetRestart.Runs(args.contains("--fleet-restart"), profile,
        Args.option(args, "--optimized-env-1").map(AbRun::variables).orElse(Map.of()));
      var results = new ArrayList<VariantResult>();
      var decisionEntries = new LinkedHashMap<String, Long>();
      var overheads = new LinkedHashMap<String, Overhead>();
      // A B B A: neither variant always meets the warmer (or the more tired) Keycloak
      var sets = new LinkedHashMap<String, SidecarConfig>();
      jvmSets.forEach(set -> sets.put(set.label(), set));
      var order = jvmSets.isEmpty() ? List.of("baseline", "optimized") : List.copyOf(sets.keySet());
      if (runs == 4) {
        order = new ArrayList<>(order);
        order.addAll(order.reversed());
      }
      for (int index = 0; index < order.size(); index++) {
        var variant = order.get(index);
        int run = (int) order.subList(0, index + 1).stream().filter(variant::equals).count();
        var runName = order.size() == 2 ? variant : variant + ", run " + run;
        var runDir = order.size() == 2 ? variant : variant + "-" + run;
        boolean baseline = variant.equals("baseline");
        var logs = Files.createDirectories(out.resolve("logs").resolve(runDir));
        var ownBuild = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        var set = sets.get(variant);
        ownBuild.addAll(set == null ? ShippedJvmOptions.list() : set.jvmOptions());
        ownBuild.add(JvmPauses.jvmOption(logs));
        ownBuild.addAll(List.of("-jar", project.resolve("sidecar/target/quarkus-app/quarkus-run.jar").toString()));
        var command = baseline ? baselineCommand.orElse(ownBuild) : ownBuild;
        var env = new HashMap<>(baseline && baselineDefaults.isPresent()
          ? profile.scale().sidecarEnvironment(baselineDefaults.get())
          : profile.scale().sidecarEnvironment());
        env.put("SIDECAR_AUTHZ_CACHE_MODE", baseline ? "legacy" : "optimized");
        if (set != null) {
          env.putAll(set.env());
        }
        env.putAll(kafka);
        env.putAll(restarts.environment(runName));
        log("%s: starting 6 sidecars (%s)", variant, String.join(" ", command));
        try (var fleet = SidecarFleet.start(command, env, platform, ports.modules(), ports.sidecars(), overrides,
          logs)) {
          var afterStart = Footprint.snapshot(fleet.processes());
          var warmToken = keycloak.admin().token(WarmUp.TENANT, Map.of("grant_type", "password",
            "client_id", WarmUp.TENANT + "-login-application", "client_secret", TestTenant.LOGIN_SECRET,
            "username", warmUser.username(), "password", TestTenant.PASSWORD)).getString("access_token");
          int warmFailures = WarmUp.run(workload.get("load.circulation"), workload.get("load.inventory"), warmToken,
            profile.warmUpSeconds());
          log("%s: sidecars ready and warmed up (%d failed) after %d s; Gatling for %d s", variant, warmFailures,
            elapsed(started), profile.durationSeconds());
          keycloak.hop().resetCounts();
          long trapBefore = stubs.discoveryHits();
          long lookupsBefore = stubs.permissionLookups();
          var cacheBefore = fleet.decisionCacheHitsAndMisses();
          var sidecarMeter = ProcessMeter.start(fleet::processes);
          var keycloakMeter = ProcessMeter.start(List.of(keycloak.process()));
          var added = AddedTime.from(CirculationModules.ALL.stream().map(module -> fleet.log(module.name())).toList());
          var steady = SteadyState.sample(() -> keycloak.hop().count(CountingHop.Kind.UMA), stubs::moduleRequests);
          var restart = restarts.watch(runName, variant, fleet, keycloak.hop(), keycloak.process(),
            stubs::moduleRequests, profile.durationSeconds());
          var stats = GatlingRun.run(project, restarts.workload(variant, workload, profile.durationSeconds()),
            out.resolve("logs/gatling-" + runDir + ".log"), out.resolve("gatling-" + runDir));
          restart.done(out.resolve("gatling-" + runDir));
          var sidecarUsage = sidecarMeter.stop();
          var keycloakUsage = keycloakMeter.stop();
          var steadyWindow = steady.stop();
          var cacheAfter = fleet.decisionCacheHitsAndMisses();
          decisionEntries.put(runName, fleet.decisionCacheEntries());
          var footprint = Footprint.afterWorkload(fleet.processes(), afterStart, profile.idleWindow());
          var cacheDelta = cacheBefore == null || cacheAfter == null
            ? null
            : new long[]{cacheAfter[0] - cacheBefore[0], cacheAfter[1] - cacheBefore[1]};
          var calls = new EnumMap<CountingHop.Kind, Integer>(CountingHop.Kind.class);
          for (var kind : CountingHop.Kind.values()) {
            calls.put(kind, keycloak.hop().count(kind));
          }
          results.add(new VariantResult(variant, runName, String.join(" ", command), fleet.reportedVersion(), stats,
            calls,
            keycloak.hop().distinctDecisionKeys(),
            keycloak.hop().umaCalls(client -> client.endsWith(SESSION_CLIENT_SUFFIX)),
            keycloak.hop().distinctUserQuestions(client -> client.endsWith(SESSION_CLIENT_SUFFIX)), cacheDelta,
            steadyWindow,
            sidecarUsage, keycloakUsage,
            stubs.discoveryHits() - trapBefore, stubs.permissionLookups() - lookupsBefore, added.read(""),
            JvmPauses.read(logs), footprint));
          log("%s: done after %d s", runName, elapsed(started));
          // every variant's hit path, measured alike: the per-request cost beside the sidecar a user runs today
          if (!overheads.containsKey(variant)) {
            overheads.put(variant, overhead(project, profile, fleet, stubs, ports.modules(), workload, out, tokens,
              runDir));
          }
        }
      }
      var wallTime = Duration.ofNanos(System.nanoTime() - started);
      var report = jvmSets.isEmpty()
        ? AbReport.write(out, profile, results, overheads, wallTime, tokens.refreshes(), tokens.failures(),
          baselineCommand.isPresent(), baselineDefaults)
        : AbReport.writeJvmSets(out, profile, results, overheads, wallTime, jvmSets);
      if (scenario.equals("sip2")) {
        Sip2Report.append(report, profile, users.size(), results, decisionEntries);
      }
      if (restarts.enabled()) {
        FleetRestartReport.append(report, profile, restarts.timelines(), restarts::environment);
      }
      System.out.println(Files.readString(report));
      log("report: %s (%d s in all)", report, elapsed(started));
      return args.contains("--check") ? restarts.check(results) : 0;
    }
  }

  private static Overhead overhead(Path project, Profile profile, SidecarFleet fleet, StubModules stubs,
    Map<String, Integer> modulePorts, Map<String, String> workload, Path out, UserTokens tokens, String runDir)
    throws Exception {
    var users = CirculationModules.USERS.name();
    int nginxPort = FreePorts.next();
    var properties = new LinkedHashMap<>(workload);
    properties.put("load.duration", "0");
    properties.put("load.overhead.rate", String.valueOf(profile.overheadRate()));
    properties.put("load.overhead.duration", String.valueOf(profile.overheadSeconds()));
    properties.put("load.overhead.rounds", String.valueOf(profile.overheadRounds()));
    properties.put("load.overhead.direct", "http://127.0.0.1:" + modulePorts.get(users));
    properties.put("load.overhead.sidecar", fleet.url(users));
    var nginx = Nginx.start(nginxPort, modulePorts.get(users), out.resolve("nginx-" + runDir));
    nginx.ifPresent(ignored -> properties.put("load.overhead.nginx", "http://127.0.0.1:" + nginxPort));
    log("overhead: %s rps, %d rounds of %d s per path: direct, sidecar%s", profile.overheadRate(),
      profile.overheadRounds(), profile.overheadSeconds(), nginx.isPresent() ? ", nginx" : " (nginx not installed)");
    var added = AddedTime.from(List.of(fleet.log(users)));
    try {
      var paths = GatlingRun.run(project, properties, out.resolve("logs/gatling-overhead-" + runDir + ".log"),
        out.resolve("gatling-overhead-" + runDir));
      var sidecarAdded = added.read("GET /users/");
      var wrk = ClosedLoop.wrk();
      if (wrk.isEmpty()) {
        log("closed loop: wrk is not installed, not run");
        return new Overhead(paths, sidecarAdded, List.of(), List.of());
      }
      var urls = new LinkedHashMap<String, String>();
      urls.put("direct", properties.get("load.overhead.direct"));
      urls.put("sidecar", properties.get("load.overhead.sidecar"));
      nginx.ifPresent(ignored -> urls.put("nginx", properties.get("load.overhead.nginx")));
      var first = tokens.current().getJsonObject(0);
      var caller = new ClosedLoop.Caller(first.getString("tenant"), first.getString("userId"),
        () -> tokens.current().getJsonObject(0).getString("token"));
      log("closed loop: %s at %s connections, %d s each", String.join(", ", urls.keySet()), ClosedLoop.CONNECTIONS,
        profile.closedLoopSeconds());
      var points = ClosedLoop.run(wrk.get(), urls, caller, fleet.process(users), profile.closedLoopSeconds());
      stubs.serviceMillis(0);
      try {
        log("closed loop again on a stub that answers at once");
        var instant = ClosedLoop.run(wrk.get(), urls, caller, fleet.process(users), profile.closedLoopSeconds());
        return new Overhead(paths, sidecarAdded, points, instant);
      } finally {
        stubs.serviceMillis(StubModules.SERVICE_MILLIS);
      }
    } finally {
      nginx.ifPresent(Nginx::close);
    }
  }

  /** Provisions the realms two at a time (Keycloak has two cores too) and returns every user. */
  private static List<LoadRealms.LoadUser> provision(LoadRealms realms, List<String> tenants, Profile profile)
    throws Exception {
    try (var pool = Executors.newFixedThreadPool(2)) {
      var futures = new ArrayList<Future<List<LoadRealms.LoadUser>>>();
      for (var tenant : tenants) {
        futures.add(pool.submit(() -> realms.provision(tenant, profile.usersPerTenant(),
          profile.tokenLifespanSeconds())));
      }
      var users = new ArrayList<LoadRealms.LoadUser>();
      for (var future : futures) {
        users.addAll(future.get());
      }
      // interleave tenants, so consecutive transactions come from different tenants
      users.sort(java.util.Comparator.comparing((LoadRealms.LoadUser user) -> user.username().replaceAll(".*_", ""))
        .thenComparing(LoadRealms.LoadUser::tenant));
      return Collections.unmodifiableList(users);
    }
  }

  /** {@code label: options NAME=value}, a set a line; the word {@code $IMAGE} stands for the image's options. */
  private static List<SidecarConfig> jvmSets(Path file) {
    try {
      return Files.readAllLines(file).stream().filter(line -> !line.isBlank() && !line.startsWith("#"))
        .map(SidecarConfig::parse).toList();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** {@code K=V,K2=V2} as variables. */
  private static Map<String, String> variables(String list) {
    var variables = new LinkedHashMap<String, String>();
    for (var pair : list.split(",")) {
      var parts = pair.split("=", 2);
      if (parts.length != 2) {
        throw new IllegalArgumentException("--optimized-env-1 takes VARIABLE=value[,VARIABLE=value], got " + list);
      }
      variables.put(parts[0].trim(), parts[1].trim());
    }
    return variables;
  }

  private static long elapsed(long started) {
    return (System.nanoTime() - started) / 1_000_000_000L;
  }

  private static void log(String format, Object... args) {
    System.out.printf("[load] " + format + "%n", args);
  }
}
