package org.folio.sidecar.load.fault;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.folio.sidecar.load.fleet.CirculationModules;

/**
 * The fault run's steady load, open loop: check-outs and check-ins by the staff users at a fixed rate, a request
 * for an endpoint staff users do not hold (must be 403), and the probe of the session that is logged out in one
 * scenario. Every request is recorded with its outcome, so a request that was sent and never answered is counted
 * as lost; Gatling's reports give statuses, not that.
 */
final class FaultLoad implements AutoCloseable {

  /** What a request stands for. */
  enum Kind {
    CHECK_OUT, CHECK_IN,
    /** A staff user's PUT to inventory-storage: staff do not hold that permission, so anything but 403 is wrong. */
    DENIED,
    /** GET /users/{id} with the token of the session a scenario logs out. */
    LOGOUT_PROBE,
    /**
     * A call of circulation's to mod-source-record-storage, which it does not require: routed by its bare-name
     * {@code x-okapi-module-hint}, so circulation's sidecar looks the tenant's modules up at mgr-tenant-entitlements.
     */
    HINTED
  }

  /** The module a hinted call names by its bare name. */
  static final String HINTED_MODULE = CirculationModules.SOURCE_RECORD_STORAGE.name();

  /** Outcomes that are not an HTTP status. */
  static final int REFUSED = -1;
  static final int LOST = -2;

  /**
   * One request: its kind, the user it was sent for, when it was sent (nanoTime) and its status, or REFUSED
   * (the connection was refused: never accepted), or LOST (accepted and never answered: reset, closed or no
   * answer within the driver's timeout).
   */
  record Outcome(Kind kind, String user, long sentNanos, long answeredNanos, int status, String error) {
    boolean ok() {
      return status / 100 == 2;
    }
  }

  /** A caller: tenant, FOLIO user id and current token. */
  record Caller(String tenant, String userId, Supplier<String> token) {
  }

  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
    .connectTimeout(Duration.ofSeconds(2)).executor(Executors.newFixedThreadPool(4)).build();
  private final ScheduledExecutorService ticker = Executors.newScheduledThreadPool(1);
  private final ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicLong sequence = new AtomicLong();
  private final Duration timeout;
  private final String circulation;
  private final String inventoryStorage;
  private final String users;
  private final Supplier<List<Caller>> staff;
  private volatile Caller logoutProbe;
  private volatile boolean probing;
  private volatile boolean hinting;

  FaultLoad(Duration timeout, String circulation, String inventoryStorage, String users,
    Supplier<List<Caller>> staff, Caller logoutProbe) {
    this.timeout = timeout;
    this.circulation = circulation;
    this.inventoryStorage = inventoryStorage;
    this.users = users;
    this.staff = staff;
    this.logoutProbe = logoutProbe;
  }

  /** Starts the load: {@code rate} check-outs and as many check-ins per second, denied requests at a tenth of it. */
  void start(double rate) {
    long periodMicros = Math.round(1_000_000 / rate);
    ticker.scheduleAtFixedRate(this::tick, 0, periodMicros, TimeUnit.MICROSECONDS);
  }

  /** Probes the logout session twice a second while on. */
  void probeLogout(boolean on, Caller caller) {
    logoutProbe = caller;
    probing = on;
  }

  /** Sends a hinted call with every tick while on. */
  void hint(boolean on) {
    hinting = on;
  }

  private void tick() {
    long n = sequence.getAndIncrement();
    var callers = staff.get();
    var caller = callers.get((int) (n % callers.size()));
    var body = "{\"itemBarcode\":\"" + n + "\",\"userBarcode\":\"" + caller.userId() + "\"}";
    send(Kind.CHECK_OUT, caller, "POST", circulation + "/circulation/check-out-by-barcode", body);
    send(Kind.CHECK_IN, caller, "POST", circulation + "/circulation/check-in-by-barcode", body);
    if (n % 4 == 0) {
      send(Kind.DENIED, caller, "PUT", inventoryStorage + "/item-storage/items/" + UUID.randomUUID(), "{}");
    }
    if (probing && n % 2 == 0) {
      var probe = logoutProbe;
      send(Kind.LOGOUT_PROBE, probe, "GET", users + "/users/" + probe.userId(), null);
    }
    if (hinting) {
      send(Kind.HINTED, caller, "POST", circulation + "/source-storage/records", body);
    }
  }

  private void send(Kind kind, Caller caller, String method, String url, String body) {
    var builder = HttpRequest.newBuilder(URI.create(url)).timeout(timeout)
      .header("x-okapi-tenant", caller.tenant()).header("x-okapi-token", caller.token().get())
      .header("content-type", "application/json");
    if (kind == Kind.HINTED) {
      builder.header("x-okapi-module-hint", HINTED_MODULE);
    }
    var request = builder
      .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
      .build();
    long sent = System.nanoTime();
    var user = caller.tenant() + "/" + caller.userId();
    inFlight.incrementAndGet();
    http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, error) -> {
      int status = response != null ? response.statusCode() : classify(error);
      outcomes.add(new Outcome(kind, user, sent, System.nanoTime(), status, response != null ? "" : describe(error)));
      inFlight.decrementAndGet();
    });
  }

  private static int classify(Throwable error) {
    var cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    // a refused connection was never accepted: the client knows it may send again elsewhere
    return cause instanceof ConnectException ? REFUSED : LOST;
  }

  private static String describe(Throwable error) {
    var cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    return cause.getClass().getSimpleName() + ": " + cause.getMessage();
  }

  /** Every outcome so far, in the order the answers came. */
  List<Outcome> outcomes() {
    return new ArrayList<>(outcomes);
  }

  /** Stops sending and waits for the answers still due (up to the driver's timeout). */
  void stop() throws InterruptedException {
    ticker.shutdownNow();
    long deadline = System.nanoTime() + timeout.toNanos() + TimeUnit.SECONDS.toNanos(2);
    while (inFlight.get() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
  }

  @Override
  public void close() throws IOException {
    ticker.shutdownNow();
    http.shutdownNow();
  }
}
