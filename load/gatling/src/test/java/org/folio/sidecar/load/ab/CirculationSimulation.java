package org.folio.sidecar.load.ab;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.jsonPath;
import static io.gatling.javaapi.core.CoreDsl.nothingFor;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The circulation workload of the A/B run, against one fleet of sidecars (baseline or optimized): check-outs and
 * check-ins by staff users of every tenant, each with the token its session holds now, plus data-import-like traffic.
 * Or the hit-path overhead phases: the users module called directly, through its sidecar with a warm cache, and through
 * nginx, one after another at a fixed rate. All addresses come from system properties that load/run-ab.sh sets, and are
 * loopback addresses. With {@code load.scenario=sip2} the circulation workload is a SIP2 self-check machine's instead:
 * every transaction a fresh login (a password grant for one of the users, in turn), then a patron look-up, a
 * check-out and a check-in with the new token.
 */
public class CirculationSimulation extends Simulation {

  private static final String TOKENS = System.getProperty("load.tokens");
  private static final String CIRCULATION = System.getProperty("load.circulation");
  private static final String INVENTORY = System.getProperty("load.inventory");
  private static final String SCENARIO = System.getProperty("load.scenario", "circulation");
  /** Keycloak's base URL, the users module's sidecar and the login secrets: the SIP2-like scenario's own. */
  private static final String KEYCLOAK = System.getProperty("load.keycloak", "");
  private static final String USERS = System.getProperty("load.users", "");
  private static final String LOGIN_SECRET = System.getProperty("load.login-secret", "");
  private static final String PASSWORD = System.getProperty("load.password", "");
  private static final double RATE = Double.parseDouble(System.getProperty("load.rate", "5"));
  private static final double IMPORT_RATE = Double.parseDouble(System.getProperty("load.import-rate", "2"));
  /** Seconds of circulation workload; 0 runs only the overhead phases. */
  private static final int DURATION = Integer.parseInt(System.getProperty("load.duration", "60"));
  private static final String DIRECT = System.getProperty("load.overhead.direct", "");
  private static final String SIDECAR = System.getProperty("load.overhead.sidecar", "");
  private static final String NGINX = System.getProperty("load.overhead.nginx", "");
  private static final double OVERHEAD_RATE = Double.parseDouble(System.getProperty("load.overhead.rate", "1000"));
  /** Seconds of each overhead phase. */
  private static final int OVERHEAD_DURATION = Integer.parseInt(System.getProperty("load.overhead.duration", "4"));
  /** Rounds of overhead phases, each round one phase per path. */
  private static final int OVERHEAD_ROUNDS = Integer.parseInt(System.getProperty("load.overhead.rounds", "4"));

  private final CurrentTokens tokens = CurrentTokens.polling(TOKENS);
  private final AtomicLong items = new AtomicLong();

  {
    HttpProtocolBuilder protocol = http.shareConnections().acceptHeader("application/json")
      .contentTypeHeader("application/json").header("x-okapi-tenant", "#{tenant}")
      .header("x-okapi-token", "#{token}");
    var populations = new ArrayList<PopulationBuilder>();
    if (DURATION > 0 && SCENARIO.equals("sip2")) {
      int ramp = Math.max(1, Math.min(10, DURATION / 5));
      populations.add(sip2().injectOpen(rampUsersPerSec(1).to(RATE).during(ramp),
        constantUsersPerSec(RATE).during(DURATION - ramp)));
    } else if (DURATION > 0) {
      int ramp = Math.max(1, Math.min(10, DURATION / 5));
      populations.add(transaction("check-out", CIRCULATION + "/circulation/check-out-by-barcode", 201).injectOpen(
        rampUsersPerSec(1).to(RATE).during(ramp), constantUsersPerSec(RATE).during(DURATION - ramp)));
      populations.add(transaction("check-in", CIRCULATION + "/circulation/check-in-by-barcode", 200).injectOpen(
        rampUsersPerSec(1).to(RATE).during(ramp), constantUsersPerSec(RATE).during(DURATION - ramp)));
      populations.add(transaction("import", INVENTORY + "/inventory/import", 201)
        .injectOpen(constantUsersPerSec(IMPORT_RATE).during(DURATION)));
    }
    // the overhead phases run one after another, so each has the machine to itself, in short rounds of
    // alternating order, so that no path always comes first or last and a passing stall of the shared machine
    // (another process's GC, say) lands on one short phase rather than on one path's whole sample; each path's
    // statistics cover all of its rounds
    var order = new ArrayList<>(
      List.of(Map.entry("nginx", NGINX), Map.entry("sidecar", SIDECAR), Map.entry("direct", DIRECT)));
    order.removeIf(target -> target.getValue().isEmpty());
    var phases = new ArrayList<Map.Entry<String, String>>();
    for (int round = 0; round < OVERHEAD_ROUNDS; round++) {
      phases.addAll(round % 2 == 0 ? order : order.reversed());
    }
    PopulationBuilder chained = null;
    for (int i = phases.size() - 1; i >= 0; i--) {
      var target = phases.get(i);
      var phase = overhead(target.getKey() + "-" + (i / order.size() + 1), target.getKey(), target.getValue())
        .injectOpen(nothingFor(Duration.ofSeconds(1)),
          constantUsersPerSec(OVERHEAD_RATE).during(OVERHEAD_DURATION));
      chained = chained == null ? phase : phase.andThen(chained);
    }
    if (chained != null) {
      populations.add(chained);
    }
    setUp(populations).protocols(protocol)
      .maxDuration(Duration.ofSeconds(DURATION + (long) phases.size() * (OVERHEAD_DURATION + 1) + 60));
  }

  private ScenarioBuilder transaction(String name, String url, int expectedStatus) {
    return scenario(name).feed(tokens.circular()).exec(session -> session.set("item", items.incrementAndGet()))
      .exec(http(name).post(url)
        .body(StringBody("{\"itemBarcode\":\"#{item}\",\"userBarcode\":\"#{userId}\"}"))
        .check(status().is(expectedStatus)));
  }

  /**
   * A SIP2 transaction: a new session for the next user (Keycloak's password grant, as a self-check machine logs in
   * for every patron), then the patron's record, a check-out and a check-in carrying that session's token. The
   * look-up is named apart, "sip2-first", as the first request after a login: a cache keyed by session misses there.
   */
  private ScenarioBuilder sip2() {
    return scenario("sip2").feed(tokens.circular()).exec(session -> session.set("item", items.incrementAndGet()))
      .exec(http("sip2-login").post(KEYCLOAK + "/realms/#{tenant}/protocol/openid-connect/token")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(StringBody("grant_type=password&client_id=#{tenant}-login-application&client_secret=" + LOGIN_SECRET
          + "&username=#{username}&password=" + PASSWORD))
        .check(status().is(200), jsonPath("$.access_token").saveAs("token")))
      .exec(http("sip2-first").get(USERS + "/users/#{userId}").check(status().is(200)))
      .exec(http("check-out").post(CIRCULATION + "/circulation/check-out-by-barcode")
        .body(StringBody("{\"itemBarcode\":\"#{item}\",\"userBarcode\":\"#{userId}\"}")).check(status().is(201)))
      .exec(http("check-in").post(CIRCULATION + "/circulation/check-in-by-barcode")
        .body(StringBody("{\"itemBarcode\":\"#{item}\",\"userBarcode\":\"#{userId}\"}")).check(status().is(200)));
  }

  /** One user's GET of a user record, the same request whichever way it goes: a warm-cache hit at the sidecar. */
  private ScenarioBuilder overhead(String scenario, String name, String baseUrl) {
    return scenario(scenario).feed(tokens.first())
      .exec(http(name).get(baseUrl + "/users/#{userId}").check(status().is(200)));
  }

  @Override
  public void after() {
    tokens.close();
  }

  /** The users' current tokens, re-read from the run's token service every second on a thread of its own. */
  static final class CurrentTokens implements AutoCloseable {

    private final java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
    private final String url;
    private final Thread poller;
    private volatile List<Map<String, Object>> current;

    private CurrentTokens(String url) {
      this.url = url;
      this.current = read();
      this.poller = Thread.ofPlatform().daemon().name("token-poller").start(this::poll);
    }

    static CurrentTokens polling(String url) {
      return new CurrentTokens(url);
    }

    Iterator<Map<String, Object>> circular() {
      var next = new AtomicLong();
      return infinite(() -> {
        var all = current;
        return all.get((int) (next.getAndIncrement() % all.size()));
      });
    }

    Iterator<Map<String, Object>> first() {
      return infinite(() -> current.getFirst());
    }

    private static Iterator<Map<String, Object>> infinite(java.util.function.Supplier<Map<String, Object>> next) {
      return new Iterator<>() {
        @Override
        public boolean hasNext() {
          return true;
        }

        @Override
        public Map<String, Object> next() {
          return next.get();
        }
      };
    }

    private void poll() {
      while (!Thread.currentThread().isInterrupted()) {
        try {
          Thread.sleep(1000);
          current = read();
        } catch (InterruptedException e) {
          return;
        } catch (RuntimeException e) {
          // keep the tokens we have; the next poll tries again
        }
      }
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> read() {
      try {
        var body = client.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url)).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        return (List<Map<String, Object>>) new com.fasterxml.jackson.databind.ObjectMapper().readValue(body,
          List.class);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    @Override
    public void close() {
      poller.interrupt();
    }
  }
}
