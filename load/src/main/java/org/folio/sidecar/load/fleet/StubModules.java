package org.folio.sidecar.load.fleet;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The other FOLIO services of the load run, in one Vert.x instance: the six modules, each answering after a
 * fixed service time; mgr-applications, mgr-tenant-entitlements and mgr-tenants; and the place discovery names
 * for mod-source-record-storage, which only a request that missed its route override would reach.
 * Circulation and inventory call the other modules through their own sidecar's egress, as real modules do.
 */
public final class StubModules implements AutoCloseable {

  /** The modules' service time in the A/B and fault runs, in milliseconds. */
  public static final int SERVICE_MILLIS = 2;

  /**
   * One egress call of a chain: the endpoint it reaches, its path from the ids of the request (the staff user, the
   * item, the patron), and its body or null.
   */
  private record Call(CirculationModules.Endpoint endpoint, Function<String[], String> path, Buffer body) {

    HttpMethod method() {
      return HttpMethod.valueOf(endpoint.method());
    }
  }

  private static final Buffer RECORD = Buffer.buffer(new JsonObject().put("id", UUID.randomUUID().toString())
    .put("status", new JsonObject().put("name", "Available")).put("barcode", "000123456").encode());
  /** A MARC-like record of about 4 KB, what data import sends to source-record-storage per record. */
  private static final Buffer MARC = Buffer.buffer(new JsonObject().put("recordType", "MARC_BIB")
    .put("rawRecord", "x".repeat(4000)).encode());

  // the patron, then the staff user who checks out: two reads of mod-users with the same desired permissions
  private static final List<Call> CHECK_OUT = List.of(
    new Call(CirculationModules.USER, ids -> "/users/" + ids[2], null),
    new Call(CirculationModules.MANUAL_BLOCKS, ids -> "/manualblocks?query=userId%3D%3D" + ids[2], null),
    new Call(CirculationModules.ITEMS, ids -> "/inventory/items?query=barcode%3D%3D" + ids[1], null),
    new Call(CirculationModules.LOAN_POLICY, ids -> "/loan-policy-storage/loan-policies/" + ids[1], null),
    new Call(CirculationModules.REQUESTS, ids -> "/request-storage/requests?query=itemId%3D%3D" + ids[1], null),
    new Call(CirculationModules.USER, ids -> "/users/" + ids[0], null),
    new Call(CirculationModules.LOAN_POST, ids -> "/loan-storage/loans", RECORD),
    new Call(CirculationModules.ITEM_PUT, ids -> "/item-storage/items/" + ids[1], RECORD));
  private static final List<Call> CHECK_IN = List.of(
    new Call(CirculationModules.ITEMS, ids -> "/inventory/items?query=barcode%3D%3D" + ids[1], null),
    new Call(CirculationModules.LOANS, ids -> "/loan-storage/loans?query=itemId%3D%3D" + ids[1], null),
    new Call(CirculationModules.LOAN_PUT, ids -> "/loan-storage/loans/" + ids[1], RECORD),
    new Call(CirculationModules.REQUESTS, ids -> "/request-storage/requests?query=itemId%3D%3D" + ids[1], null),
    new Call(CirculationModules.ITEM_PUT, ids -> "/item-storage/items/" + ids[1], RECORD),
    new Call(CirculationModules.ACCOUNTS, ids -> "/accounts?query=loanId%3D%3D" + ids[1], null),
    new Call(CirculationModules.USER, ids -> "/users/" + ids[2], null));
  private static final List<Call> IMPORT = List.of(
    new Call(CirculationModules.RECORD_POST, ids -> "/source-storage/records", MARC),
    new Call(CirculationModules.INSTANCE_POST, ids -> "/instance-storage/instances", RECORD));

  private final Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2));
  private final HttpClient client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true),
    new PoolOptions().setHttp1MaxSize(200));
  private final List<HttpServer> servers = new ArrayList<>();
  private volatile long serviceMillis;
  private final AtomicLong discoveryHits = new AtomicLong();
  private final AtomicLong moduleRequests = new AtomicLong();
  private final AtomicLong permissionLookups = new AtomicLong();
  private final AtomicLong moduleLookups = new AtomicLong();
  private volatile FaultMode moduleLookupMode = FaultMode.PASS;
  private volatile long moduleLookupDelayMillis;

  public StubModules(long serviceMillis) {
    this.serviceMillis = serviceMillis;
  }

  /** Changes the service time from now on: the closed loop runs once on the 2-ms stub and once on an instant one. */
  public void serviceMillis(long millis) {
    this.serviceMillis = millis;
  }

  /** Starts the module {@code name} on {@code port}; circulation and inventory call out through {@code ownSidecar}. */
  public void startModule(String name, int port, String ownSidecar) {
    listen(port, request -> request.body().onSuccess(body -> {
      var path = request.path();
      if (!path.startsWith("/admin/")) {
        moduleRequests.incrementAndGet();
      }
      if (path.equals("/circulation/check-out-by-barcode")) {
        chain(request, ownSidecar, CHECK_OUT, 201);
      } else if (path.equals("/circulation/check-in-by-barcode")) {
        chain(request, ownSidecar, CHECK_IN, 200);
      } else if (name.equals(CirculationModules.INVENTORY.name()) && path.equals("/inventory/import")) {
        chain(request, ownSidecar, IMPORT, 201);
      } else {
        answerLater(request, request.method() == HttpMethod.POST ? 201 : 200, RECORD);
      }
    }));
  }

  /** Calls per check-out, check-in and import a module makes through its sidecar, as the report describes them. */
  public static Map<String, Integer> chainLengths() {
    return Map.of("check-out", CHECK_OUT.size(), "check-in", CHECK_IN.size(), "import", IMPORT.size());
  }

  /** Every permission the modules' calls need: authorized with the tenant's service token, so once per tenant. */
  public static Set<String> chainPermissions() {
    return Stream.of(CHECK_OUT, CHECK_IN, IMPORT).flatMap(List::stream).map(call -> call.endpoint().permission())
      .collect(Collectors.toSet());
  }

  /**
   * mgr-applications (bootstraps, and the discovery of a module a hint names), mgr-tenant-entitlements (each
   * tenant holds every module; the lookup of a tenant's modules, {@code includeModules=true}, can fail: see
   * {@link #moduleLookups(FaultMode, long)}) and mgr-tenants for the run's modules and tenants, and
   * mod-users-keycloak's desired-permission lookup (every staff user holds every desired permission).
   */
  public void startManagers(int port, Map<String, String> discovery, List<String> tenants) {
    var entitlements = new JsonArray();
    var tenantList = new JsonArray();
    for (var tenant : tenants) {
      var id = UUID.nameUUIDFromBytes(tenant.getBytes()).toString();
      entitlements.add(new JsonObject().put("applicationId", "app-circulation-1.0.0").put("tenantId", id)
        .put("modules", new JsonArray()));
      tenantList.add(new JsonObject().put("id", id).put("name", tenant));
    }
    var entitlementsBody = new JsonObject().put("entitlements", entitlements).put("totalRecords", entitlements.size())
      .toBuffer();
    var tenantsBody = new JsonObject().put("tenants", tenantList).put("totalRecords", tenantList.size()).toBuffer();
    var moduleIds = new JsonArray(CirculationModules.ALL.stream().map(CirculationModules.Module::id).toList());
    var withModules = new JsonObject().put("entitlements", new JsonArray().add(new JsonObject()
      .put("applicationId", "app-circulation-1.0.0").put("modules", moduleIds))).put("totalRecords", 1).toBuffer();
    listen(port, request -> {
      var path = request.path();
      var response = request.response().putHeader("content-type", "application/json");
      if (path.startsWith("/users-keycloak/users/") && path.endsWith("/permissions")) {
        permissionLookups.incrementAndGet();
        var held = new JsonObject().put("permissions", new JsonArray(request.params().getAll("desiredPermissions")));
        later(() -> response.end(held.toBuffer()));
      } else if (path.startsWith("/modules/") && path.endsWith("/discovery")) {
        var module = CirculationModules.ALL.stream().filter(m -> path.equals("/modules/" + m.id() + "/discovery"))
          .findFirst();
        response.setStatusCode(module.isPresent() ? 200 : 404).end(module.isEmpty()
          ? "{}"
          : new JsonObject().put("location", discovery.get(module.get().name())).encode());
      } else if (path.equals("/entitlements") && "true".equals(request.getParam("includeModules"))) {
        moduleLookups.incrementAndGet();
        switch (moduleLookupMode) {
          case UNAVAILABLE -> response.setStatusCode(503).end("{\"errors\":[{\"message\":\"unavailable\"}]}");
          case SLOW -> vertx.setTimer(moduleLookupDelayMillis, id -> response.end(withModules));
          default -> response.end(withModules);
        }
      } else if (path.startsWith("/modules/")) {
        var module = CirculationModules.ALL.stream().filter(m -> path.equals("/modules/" + m.id())).findFirst();
        if (module.isEmpty()) {
          response.setStatusCode(404).end("{}");
          return;
        }
        response.end(CirculationModules.bootstrap(module.get(), discovery).toBuffer());
      } else if (path.startsWith("/entitlements/modules/")) {
        boolean firstPage = "0".equals(request.getParam("offset", "0"));
        response.end(firstPage
          ? entitlementsBody
          : new JsonObject().put("entitlements", new JsonArray()).put("totalRecords", entitlements.size()).toBuffer());
      } else if (path.equals("/tenants")) {
        response.end(tenantsBody);
      } else {
        response.setStatusCode(404).end("{}");
      }
    });
  }

  /** Where discovery says source-record-storage is: only a request that ignored the route override lands here. */
  public void startDiscoveryTrap(int port) {
    listen(port, request -> {
      discoveryHits.incrementAndGet();
      request.response().setStatusCode(503).end("{\"message\":\"shared deployment: the route override was missed\"}");
    });
  }

  /** Requests the modules have received, health probes aside. */
  public long moduleRequests() {
    return moduleRequests.get();
  }

  /** Desired-permission lookups the sidecars have made at mod-users-keycloak. */
  public long permissionLookups() {
    return permissionLookups.get();
  }

  /** Lookups of a tenant's modules at mgr-tenant-entitlements (what a bare-name module hint needs). */
  public long moduleLookups() {
    return moduleLookups.get();
  }

  /** From now on the lookup of a tenant's modules answers 503 (UNAVAILABLE), late (SLOW) or at once (PASS). */
  public void moduleLookups(FaultMode mode, long delayMillis) {
    moduleLookupDelayMillis = delayMillis;
    moduleLookupMode = mode;
  }

  public long discoveryHits() {
    return discoveryHits.get();
  }

  private void chain(HttpServerRequest request, String sidecar, List<Call> calls, int status) {
    var ids = new String[]{request.getHeader("x-okapi-user-id"), UUID.randomUUID().toString(),
      UUID.randomUUID().toString()};
    var headers = MultiMap.caseInsensitiveMultiMap()
      .add("x-okapi-tenant", request.getHeader("x-okapi-tenant"))
      .add("x-okapi-token", String.valueOf(request.getHeader("x-okapi-token")))
      .add("x-okapi-request-id", String.valueOf(request.getHeader("x-okapi-request-id")))
      .add("content-type", "application/json");
    Future<Void> done = Future.succeededFuture();
    for (var call : calls) {
      done = done.compose(ignored -> send(sidecar, call, ids, headers));
    }
    done.onSuccess(ignored -> answerLater(request, status, RECORD))
      .onFailure(error -> request.response().setStatusCode(500)
        .end(new JsonObject().put("message", error.getMessage()).encode()));
  }

  private Future<Void> send(String sidecar, Call call, String[] ids, MultiMap headers) {
    var path = call.path().apply(ids);
    var options = new RequestOptions().setAbsoluteURI(sidecar + path).setMethod(call.method()).setHeaders(headers)
      .setTimeout(30_000);
    return client.request(options)
      .compose(outgoing -> call.body() == null ? outgoing.send() : outgoing.send(call.body()))
      .compose(response -> response.body().compose(body -> response.statusCode() / 100 == 2
        ? Future.<Void>succeededFuture()
        : Future.failedFuture(call.method() + " " + path.replaceAll("\\?.*", "") + " answered "
          + response.statusCode() + ": " + body)));
  }

  private void answerLater(HttpServerRequest request, int status, Buffer body) {
    later(() -> request.response().setStatusCode(status).putHeader("content-type", "application/json").end(body));
  }

  /** After the service time; a stub of service time 0 answers at once (Vert.x refuses a timer under 1 ms). */
  private void later(Runnable answer) {
    if (serviceMillis <= 0) {
      answer.run();
    } else {
      vertx.setTimer(serviceMillis, id -> answer.run());
    }
  }

  private void listen(int port, io.vertx.core.Handler<HttpServerRequest> handler) {
    try {
      servers.add(vertx.createHttpServer().requestHandler(handler).listen(port, "127.0.0.1")
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS));
    } catch (Exception e) {
      throw new IllegalStateException("cannot listen on " + port, e);
    }
  }

  @Override
  public void close() {
    vertx.close();
  }
}
