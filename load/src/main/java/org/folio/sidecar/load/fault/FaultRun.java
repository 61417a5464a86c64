package org.folio.sidecar.load.fault;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.folio.sidecar.load.cli.Args;
import org.folio.sidecar.load.cli.Command;
import org.folio.sidecar.load.fleet.CirculationModules;
import org.folio.sidecar.load.fleet.FaultMode;
import org.folio.sidecar.load.fleet.FleetPorts;
import org.folio.sidecar.load.fleet.ShippedJvmOptions;
import org.folio.sidecar.load.fleet.SidecarFleet;
import org.folio.sidecar.load.fleet.StubModules;
import org.folio.sidecar.load.fleet.TimeScale;
import org.folio.sidecar.load.keycloak.LoadRealms;
import org.folio.sidecar.load.keycloak.UserTokens;
import org.folio.sidecar.load.measure.ProcessMeter;
import org.folio.sidecar.testkit.CountingHop;
import org.folio.sidecar.testkit.Events;
import org.folio.sidecar.testkit.FolioRealms;
import org.folio.sidecar.testkit.FreePorts;
import org.folio.sidecar.testkit.KafkaBroker;
import org.folio.sidecar.testkit.KeycloakServer;
import org.folio.sidecar.testkit.TcpProxy;
import org.folio.sidecar.testkit.TestTenant;
import org.jspecify.annotations.Nullable;

/**
 * The fault run (load/run-faults.sh): the circulation fleet of the A/B run, with a real Keycloak, an in-process
 * Kafka broker and the secure store proxy as its secret store, under steady check-out/check-in load while one
 * fault at a time is injected and taken away again (recovery in between). Stops by itself and writes one report.
 */
public final class FaultRun {

  /**
   * The size of a run. Every time constant of the fleet and of the faults is its production value times
   * {@code timeScale}: the outages (60 s), the token lifespan, the caches' lifetimes, the secret cache's TTL, the
   * request timeout. {@code beforeSeconds} and {@code afterSeconds} are the measured windows around each fault.
   */
  record Profile(String name, int tenants, int usersPerTenant, double rate, double timeScale, int warmUpSeconds,
    int beforeSeconds, int afterSeconds) {

    TimeScale scale() {
      return new TimeScale(timeScale);
    }

    Duration scaled(Duration production) {
      return scale().scaled(production);
    }
  }

  static final Map<String, Profile> PROFILES = Map.of(
    "default", new Profile("default", 8, 2, 4, 0.25, 30, 15, 30),
    "quick", new Profile("quick", 4, 2, 3, 0.1, 30, 10, 20),
    "tiny", new Profile("tiny", 2, 2, 3, 0.05, 20, 5, 10));

  /** Production constants of the faults and of the sidecar that the run scales (the caches' come from TimeScale). */
  static final Duration OUTAGE = Duration.ofSeconds(60);
  static final Duration SECRET_CACHE_TTL = Duration.ofMinutes(15);
  static final Duration SECRET_FAILURE_TTL = Duration.ofSeconds(30);
  static final Duration REFUSED_TOKEN_MIN_AGE = Duration.ofSeconds(30);
  /**
   * REQUEST_TIMEOUT in every profile (production default 60 s): it bounds one call's latency, which the compressed
   * clock does not shorten, and 10 s lets scenario d's requests give up within its windows.
   */
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
  /** The secret store's outage: 20 production minutes, longer than its cache TTL (15). */
  static final Duration SECRET_OUTAGE = Duration.ofMinutes(20);
  /** ROUTING_DYNAMIC_ENTITLEMENTS_CACHE_TTL's default: how long a tenant's modules, or the failure to get them, stay. */
  static final Duration HINT_LOOKUP_TTL = Duration.ofSeconds(30);
  /**
   * SIDECAR_MANAGER_TIMEOUT, its default in every profile: like REQUEST_TIMEOUT a bound on one call's latency, which
   * the compressed clock does not shorten.
   */
  static final Duration MANAGER_TIMEOUT = Duration.ofSeconds(10);
  /** The size of scenario j's huge record: half of the broker's and the producer's 1-MB limit. */
  static final int HUGE_RECORD_CHARS = 500_000;

  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

  private FaultRun() {
  }

  public static void main(String[] args) {
    Command.exit(args, FaultRun::run);
  }

  /** One fault: what injects it and what takes it away. */
  interface Fault {
    void inject() throws Exception;

    void restore() throws Exception;
  }

  /** Everything a scenario needs from the running platform. */
  private record Platform(Profile profile, KeycloakServer keycloak, TcpProxy kafka, SidecarFleet fleet,
    FaultRelay circulation, FaultRelay users, FaultRelay secrets, FaultLoad load, Events events, StubModules stubs,
    List<String> topics) {
  }

  private static int run(List<String> args) throws Exception {
    var profile = PROFILES.get(args.contains("--tiny") ? "tiny" : args.contains("--quick") ? "quick" : "default");
    var only = Args.option(args, "--only");
    var project = Path.of("").toAbsolutePath();
    var out = Args.out(args, "faults-" + Args.now("yyyyMMdd-HHmmss"));
    var logs = Files.createDirectories(out.resolve("logs"));
    long started = System.nanoTime();
    log("profile %s: %d tenants x %d users, %s check-outs and check-ins per second, time scale x%s, results in %s",
      profile.name(), profile.tenants(), profile.usersPerTenant(), profile.rate(), profile.timeScale(), out);

    var keycloak = KeycloakServer.get();
    new FolioRealms(keycloak.admin()).provisionAdminClient(LoadRealms.ADMIN_SECRET);
    var realms = new LoadRealms(keycloak.admin());
    var tenants = new ArrayList<String>();
    var users = new ArrayList<LoadRealms.LoadUser>();
    int lifespan = (int) profile.scale().tokenLifespan().toSeconds();
    for (int i = 1; i <= profile.tenants(); i++) {
      tenants.add(LoadRealms.tenantName(i));
      users.addAll(realms.provision(LoadRealms.tenantName(i), profile.usersPerTenant(), lifespan));
    }
    log("Keycloak and %d realms ready after %d s", tenants.size(), elapsed(started));

    var topics = new ArrayList<>(List.of("folio.discovery", "folio.entitlement"));
    tenants.forEach(tenant -> topics.add("folio." + tenant + ".mod-login-keycloak.logout"));
    var kafka = new TcpProxy(FreePorts.next());
    var bootstrap = KafkaBroker.start(topics, kafka);
    log("Kafka broker at %s", bootstrap);

    var ports = FleetPorts.allocate();
    int managersPort = FreePorts.next();
    var circulationName = CirculationModules.CIRCULATION.name();
    var usersName = CirculationModules.USERS.name();
    // the sidecars of circulation and users reach their module through a relay that can fail
    var sidecarSees = new HashMap<>(ports.modules());
    sidecarSees.put(circulationName, FreePorts.next());
    sidecarSees.put(usersName, FreePorts.next());

    try (var stubs = new StubModules(StubModules.SERVICE_MILLIS);
      var tokens = new UserTokens(keycloak.admin(), users);
      var circulation = FaultRelay.module(sidecarSees.get(circulationName), ports.modules().get(circulationName));
      var usersRelay = FaultRelay.module(sidecarSees.get(usersName), ports.modules().get(usersName));
      var secrets = FaultRelay.secretStore(FreePorts.next(), FaultRun::secret);
      var events = new Events(bootstrap)) {
      for (var module : CirculationModules.ALL) {
        stubs.startModule(module.name(), ports.modules().get(module.name()), ports.discovery().get(module.name()));
      }
      stubs.startManagers(managersPort, ports.discovery(), tenants);
      tokens.start(FreePorts.next());
      var platform = new SidecarFleet.Platform(keycloak.hop().url(), "http://127.0.0.1:" + managersPort, tenants,
        LoadRealms.ADMIN_SECRET, TestTenant.SERVICE_SECRET);
      var env = new LinkedHashMap<>(environment(profile));
      env.put("KAFKA_HOST", "localhost");
      env.put("KAFKA_PORT", String.valueOf(kafka.port()));
      env.put("SECRET_STORE_TYPE", "FSSP");
      env.put("SECRET_STORE_FSSP_ADDRESS", "http://127.0.0.1:" + secrets.port());
      var command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
      command.addAll(ShippedJvmOptions.list());
      command.addAll(List.of("-jar", project.resolve("sidecar/target/quarkus-app/quarkus-run.jar").toString()));
      try (var fleet = SidecarFleet.start(command, env, platform, sidecarSees, ports.sidecars(), Map.of(), logs)) {
        log("6 sidecars ready after %d s", elapsed(started));
        var probe = logoutSession(keycloak, users.getFirst());
        var load = new FaultLoad(REQUEST_TIMEOUT.plusSeconds(10), fleet.url(circulationName),
          fleet.url(CirculationModules.INVENTORY_STORAGE.name()), fleet.url(usersName),
          () -> callers(tokens), probe.caller());
        try (load) {
          load.start(profile.rate());
          var p = new Platform(profile, keycloak, kafka, fleet, circulation, usersRelay, secrets, load, events, stubs,
            List.copyOf(topics));
          // caches, connections, Keycloak and the JIT warm up before the first scenario, until the fleet answers
          // steadily: a cold fleet on a busy machine needs a minute, and a fault in it would measure the cold start
          long warmUp = warmUp(load, profile);
          log("warmed up in %d s", warmUp);
          var results = new ArrayList<FaultReport.Result>();
          for (var scenario : FaultReport.SCENARIOS) {
            if (only.isPresent() && !only.get().contains(scenario.id())) {
              continue;
            }
            log("scenario %s: %s", scenario.id(), scenario.title());
            results.add(scenario(p, scenario, probe));
            log("scenario %s done after %d s", scenario.id(), elapsed(started));
          }
          load.stop();
          // requests still in flight at a scenario's end are answered (or lost) by now
          var outcomes = load.outcomes();
          results.replaceAll(result -> result.with(outcomes));
          var report = FaultReport.write(out, profile, warmUp, results, Duration.ofNanos(System.nanoTime() - started));
          System.out.println(Files.readString(report));
          log("report: %s (%d s in all)", report, elapsed(started));
          return args.contains("--check") ? FaultReport.check(results) : 0;
        }
      }
    } finally {
      kafka.cut();
    }
  }

  /**
   * Waits at least {@code warmUpSeconds}, then until 95 % of the last 10 s of user requests were answered 2xx (at
   * most 180 s); returns the seconds it took.
   */
  private static long warmUp(FaultLoad load, Profile profile) throws InterruptedException {
    long started = System.nanoTime();
    sleep(Duration.ofSeconds(profile.warmUpSeconds()));
    while (System.nanoTime() - started < TimeUnit.SECONDS.toNanos(180)) {
      long since = System.nanoTime() - TimeUnit.SECONDS.toNanos(10);
      var recent = load.outcomes().stream().filter(o -> o.sentNanos() >= since
        && (o.kind() == FaultLoad.Kind.CHECK_OUT || o.kind() == FaultLoad.Kind.CHECK_IN)).toList();
      if (recent.size() >= 10 && recent.stream().filter(FaultLoad.Outcome::ok).count() >= recent.size() * 0.95) {
        break;
      }
      sleep(Duration.ofSeconds(2));
    }
    return (System.nanoTime() - started) / 1_000_000_000L;
  }

  /** The variables of every sidecar: the A/B run's scaled cache constants, and the constants the faults meet. */
  static Map<String, String> environment(Profile profile) {
    var env = new LinkedHashMap<>(profile.scale().sidecarEnvironment());
    env.put("SIDECAR_SECRET_CACHE_TTL", profile.scaled(SECRET_CACHE_TTL).toMillis() + "ms");
    env.put("SIDECAR_SECRET_FAILURE_CACHE_TTL", profile.scaled(SECRET_FAILURE_TTL).toMillis() + "ms");
    env.put("SIDECAR_REFUSED_TOKEN_MIN_AGE", profile.scaled(REFUSED_TOKEN_MIN_AGE).toMillis() + "ms");
    env.put("REQUEST_TIMEOUT", String.valueOf(REQUEST_TIMEOUT.toMillis()));
    env.put("SIDECAR_MANAGER_TIMEOUT", MANAGER_TIMEOUT.toMillis() + "ms");
    env.put("ROUTING_DYNAMIC_ENABLED", "true");
    env.put("ROUTING_DYNAMIC_ENTITLEMENTS_CACHE_TTL", profile.scaled(HINT_LOOKUP_TTL).toMillis() + "ms");
    return env;
  }

  private static @Nullable String secret(String key) {
    if (key.equals("folio_master_folio-backend-admin-client")) {
      return LoadRealms.ADMIN_SECRET;
    }
    return key.endsWith("_sidecar-module-access-client") ? TestTenant.SERVICE_SECRET : null;
  }

  private static List<FaultLoad.Caller> callers(UserTokens tokens) {
    var current = tokens.current();
    var callers = new ArrayList<FaultLoad.Caller>();
    for (int i = 0; i < current.size(); i++) {
      var entry = current.getJsonObject(i);
      var token = entry.getString("token");
      callers.add(new FaultLoad.Caller(entry.getString("tenant"), entry.getString("userId"), () -> token));
    }
    return callers;
  }

  /** A second session of the first user, never refreshed, which scenario e logs out. */
  private record LogoutSession(LoadRealms.LoadUser user, String accessToken, String refreshToken, String sessionId) {
    FaultLoad.Caller caller() {
      return new FaultLoad.Caller(user.tenant(), user.userId(), () -> accessToken);
    }
  }

  private static LogoutSession logoutSession(KeycloakServer keycloak, LoadRealms.LoadUser user) {
    var login = keycloak.admin().token(user.tenant(), Map.of("grant_type", "password",
      "client_id", user.tenant() + "-login-application", "client_secret", TestTenant.LOGIN_SECRET,
      "username", user.username(), "password", TestTenant.PASSWORD));
    var token = login.getString("access_token");
    var claims = new io.vertx.core.json.JsonObject(new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]),
      StandardCharsets.UTF_8));
    return new LogoutSession(user, token, login.getString("refresh_token"), claims.getString("sid"));
  }

  /**
   * Runs one scenario: a window of steady load, the fault for its duration, its end, and a window to recover; the
   * platform's counters and the fleet's memory over all of it; sidecars that died unasked are counted and started
   * again, as Kubernetes would.
   */
  private static FaultReport.Result scenario(Platform p, FaultReport.Scenario scenario, LogoutSession first)
    throws Exception {
    // scenario e's and j's session logs in when it starts, so its token is still valid when it is logged out
    boolean logsOut = scenario.id().equals("e") || scenario.id().equals("j");
    var probe = logsOut ? logoutSession(p.keycloak(), first.user()) : first;
    var profile = p.profile();
    var hop = p.keycloak().hop();
    int tokensBefore = hop.count(CountingHop.Kind.TOKEN);
    int umaBefore = hop.count(CountingHop.Kind.UMA);
    var meter = ProcessMeter.start(p.fleet().processes());
    var readiness = new ConcurrentLinkedQueue<long[]>();
    var prober = Thread.ofPlatform().daemon().name("readiness").start(() -> probeReadiness(p.fleet(), readiness));
    long start = System.nanoTime();
    var logout = new long[]{Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE};
    long lookupsDuringFault = 0;
    long badPublished = 0;
    long badCounted = 0;
    String deliberate = "";
    if (logsOut) {
      p.load().probeLogout(true, probe.caller());
    }
    p.load().hint(scenario.id().equals("i"));
    sleep(Duration.ofSeconds(profile.beforeSeconds()));
    long faultAt = System.nanoTime();
    // the window before the fault has its own renewals (refresh-ahead); "during the fault" starts here
    int tokensAtFault = hop.count(CountingHop.Kind.TOKEN);
    var duration = profile.scaled(scenario.id().equals("g") ? SECRET_OUTAGE : OUTAGE);
    var circulation = CirculationModules.CIRCULATION.name();
    String extra = "";
    switch (scenario.id()) {
      case "a" -> {
        hop.cut();
        sleep(duration);
        hop.restore();
      }
      case "b" -> {
        p.kafka().cut();
        sleep(duration);
        p.kafka().start();
      }
      case "c" -> {
        p.circulation().mode(FaultMode.DOWN, 0);
        sleep(duration);
        p.circulation().mode(FaultMode.PASS, 0);
      }
      case "d" -> {
        p.circulation().mode(FaultMode.SLOW, REQUEST_TIMEOUT.toMillis() * 3 / 2);
        sleep(duration);
        p.circulation().mode(FaultMode.PASS, 0);
      }
      case "e" -> {
        hop.cut();
        sleep(duration.dividedBy(2));
        // the user logs out at Keycloak (which still runs: only the sidecars' way to it is cut) and
        // mod-login-keycloak publishes the event
        int status = logOutAtKeycloak(p, probe);
        logout = publishLogout(p, probe);
        extra = "Keycloak's logout answered " + status;
        sleepUntil(faultAt + duration.toNanos());
        hop.restore();
      }
      case "f" -> {
        var stopped = p.fleet().stop(circulation);
        deliberate = circulation;
        long signalled = System.nanoTime();
        boolean exited = stopped.waitFor(60, TimeUnit.SECONDS);
        extra = exited
          ? String.format(Locale.ROOT, "exited %.1f s after SIGTERM with %d", (System.nanoTime() - signalled) / 1e9,
            stopped.exitValue())
          : "still running 60 s after SIGTERM";
        p.fleet().startAgain(circulation, Duration.ofSeconds(180));
      }
      case "g" -> {
        p.secrets().mode(FaultMode.UNAVAILABLE, 0);
        sleep(duration);
        p.secrets().mode(FaultMode.PASS, 0);
      }
      case "h" -> {
        p.users().mode(FaultMode.UNAUTHORIZED, 0);
        sleep(duration);
        p.users().mode(FaultMode.PASS, 0);
      }
      case "i" -> {
        long lookupsBefore = p.stubs().moduleLookups();
        p.stubs().moduleLookups(FaultMode.UNAVAILABLE, 0);
        sleep(duration.dividedBy(2));
        p.stubs().moduleLookups(FaultMode.SLOW, MANAGER_TIMEOUT.toMillis() * 3 / 2);
        sleep(duration.dividedBy(2));
        p.stubs().moduleLookups(FaultMode.PASS, 0);
        lookupsDuringFault = p.stubs().moduleLookups() - lookupsBefore;
      }
      case "j" -> {
        var skippedBefore = skipped(p.fleet());
        int status = logOutAtKeycloak(p, probe);
        int bad = 0;
        for (var topic : p.topics()) {
          for (var record : badRecords()) {
            p.events().send(topic, record);
            bad++;
          }
        }
        logout = publishLogout(p, probe);
        sleepUntil(faultAt + duration.toNanos());
        var skippedAfter = skipped(p.fleet());
        var counted = new ArrayList<String>();
        for (var module : CirculationModules.ALL) {
          counted.add(module.name() + " " + (skippedAfter.get(module.name()) - skippedBefore.get(module.name())));
        }
        extra = String.format(Locale.ROOT, "Keycloak's logout answered %d; %d bad records published (%d topics x "
          + "%d), then the LOGOUT; bad records each sidecar counted malformed, ignored or failed: %s", status, bad,
          p.topics().size(), bad / p.topics().size(), String.join(", ", counted));
        badPublished = bad;
        badCounted = CirculationModules.ALL.stream().mapToLong(m -> skippedAfter.get(m.name())
          - skippedBefore.get(m.name())).min().orElse(0);
      }
      default -> throw new IllegalArgumentException(scenario.id());
    }
    long returnedAt = System.nanoTime();
    int tokensDuringFault = hop.count(CountingHop.Kind.TOKEN) - tokensAtFault;
    sleep(Duration.ofSeconds(profile.afterSeconds()));
    if (logsOut) {
      p.load().probeLogout(false, probe.caller());
    }
    long end = System.nanoTime();
    prober.interrupt();
    var usage = meter.stop();
    int restarts = 0;
    for (var module : CirculationModules.ALL) {
      if (!p.fleet().alive(module.name())) {
        restarts++;
        log("the sidecar of %s died unasked; starting it again", module.name());
        p.fleet().startAgain(module.name(), Duration.ofSeconds(180));
      }
    }
    p.load().hint(false);
    var window = new FaultReport.Window(start, faultAt, returnedAt, end, logout[1]);
    var logoutTimes = new FaultReport.Logout(logout[0], logout[1], logout[2]);
    var events = new FaultReport.Figures(lookupsDuringFault, profile.scaled(HINT_LOOKUP_TTL).toMillis() / 1000.0,
      MANAGER_TIMEOUT.toMillis() / 1000.0, badPublished, badCounted);
    return new FaultReport.Result(scenario, window, duration, List.of(), List.copyOf(readiness),
      hop.count(CountingHop.Kind.TOKEN) - tokensBefore, tokensDuringFault, hop.count(CountingHop.Kind.UMA) - umaBefore,
      restarts, deliberate, usage.peakRssBytes(), extra, profile.tenants(),
      REQUEST_TIMEOUT.toMillis() / 1000.0, profile.scaled(REFUSED_TOKEN_MIN_AGE).toMillis() / 1000.0, logoutTimes,
      events);
  }

  /** The user logs the session out at Keycloak, as mod-login-keycloak does before it publishes the event. */
  private static int logOutAtKeycloak(Platform p, LogoutSession probe) {
    return p.keycloak().admin().postForm("/realms/" + probe.user().tenant() + "/protocol/openid-connect/logout",
      Map.of("client_id", probe.user().tenant() + "-login-application", "client_secret", TestTenant.LOGIN_SECRET,
        "refresh_token", probe.refreshToken()));
  }

  /**
   * Publishes the session's LOGOUT; returns when (nanoTime) the send began, the broker acknowledged it, and the
   * first sample of the probed sidecar's metrics (every 10 ms, at most 5 s) counted one more logout applied, taken
   * when that sample was answered (Long.MAX_VALUE: not within 5 s). The sidecar is mod-users' one, which the
   * session's probe calls.
   */
  private static long[] publishLogout(Platform p, LogoutSession probe) throws InterruptedException {
    var users = CirculationModules.USERS.name();
    long before = p.fleet().events(users, List.of("logout"), "applied");
    long sent = System.nanoTime();
    p.events().logout(probe.user().tenant(), probe.user().userId(), probe.sessionId());
    long acked = System.nanoTime();
    while (System.nanoTime() - acked < TimeUnit.SECONDS.toNanos(5)) {
      if (p.fleet().events(users, List.of("logout"), "applied") > before) {
        return new long[]{sent, acked, System.nanoTime()};
      }
      Thread.sleep(10);
    }
    return new long[]{sent, acked, Long.MAX_VALUE};
  }

  /**
   * Records no sidecar can apply, for every topic: not JSON, no value (a tombstone), a JSON array, an unknown
   * event type, and a huge object that lacks the event's fields.
   */
  private static List<String> badRecords() {
    var unknown = new io.vertx.core.json.JsonObject().put("type", "UNKNOWN").put("moduleId", "mod-unknown-1.0.0")
      .put("tenantName", "no-such-tenant").put("userId", "00000000-0000-0000-0000-000000000000")
      .put("sessionId", "no-such-session").encode();
    var huge = new io.vertx.core.json.JsonObject().put("padding", "x".repeat(HUGE_RECORD_CHARS)).encode();
    return java.util.Arrays.asList("{\"moduleId\": ", null, "[1, 2, 3]", unknown, huge);
  }

  /** Per sidecar, the events it counted malformed, ignored or failed (-1: its metrics could not be read). */
  private static Map<String, Long> skipped(SidecarFleet fleet) {
    var kinds = List.of("discovery", "entitlement", "logout");
    var counts = new HashMap<String, Long>();
    for (var module : CirculationModules.ALL) {
      long sum = 0;
      for (var outcome : List.of("malformed", "ignored", "failed")) {
        long count = fleet.events(module.name(), kinds, outcome);
        sum = count < 0 || sum < 0 ? -1 : sum + count;
      }
      counts.put(module.name(), sum);
    }
    return counts;
  }

  /** Every 500 ms, each sidecar's readiness: {time, 1 if every sidecar answered 200 else 0}. */
  private static void probeReadiness(SidecarFleet fleet, ConcurrentLinkedQueue<long[]> samples) {
    while (!Thread.currentThread().isInterrupted()) {
      boolean all = true;
      for (var module : CirculationModules.ALL) {
        try {
          var answer = HTTP.send(HttpRequest.newBuilder(URI.create(fleet.url(module.name()) + "/admin/health/ready"))
            .timeout(Duration.ofSeconds(1)).build(), HttpResponse.BodyHandlers.discarding());
          all &= answer.statusCode() == 200;
        } catch (java.io.IOException e) {
          all = false;
        } catch (InterruptedException e) {
          return;
        }
      }
      samples.add(new long[]{System.nanoTime(), all ? 1 : 0});
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private static void sleep(Duration duration) throws InterruptedException {
    Thread.sleep(duration.toMillis());
  }

  private static void sleepUntil(long nanoTime) throws InterruptedException {
    long left = nanoTime - System.nanoTime();
    if (left > 0) {
      Thread.sleep(TimeUnit.NANOSECONDS.toMillis(left));
    }
  }

  private static long elapsed(long started) {
    return (System.nanoTime() - started) / 1_000_000_000L;
  }

  static void log(String format, Object... args) {
    System.out.printf("[faults] " + format + "%n", args);
  }
}
