package org.folio.sidecar.tenant;

import com.github.benmanes.caffeine.cache.Ticker;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.folio.sidecar.config.ConfigValidator;
import org.folio.sidecar.config.ModuleConfig;
import org.folio.sidecar.config.RetryConfig;
import org.folio.sidecar.config.StartupWait;
import org.folio.sidecar.config.TenantConfig;
import org.folio.sidecar.token.ServiceTokens;

/**
 * The tenants entitled to this module, by name. Loaded from mgr-tenant-entitlements (every page, unlike
 * upstream) and mgr-tenants, re-read periodically and on a request for an unknown tenant (throttled), and
 * changed at once by entitlement events. Reads are a lookup in an immutable set.
 */
@Singleton
public class TenantEntitlements {


  private final TenantConfig config;
  private final ModuleConfig module;
  private final Vertx vertx;
  private final WebClient client;
  private final ServiceTokens tokens;
  private final RetryConfig retry;
  private final Promise<Void> firstLoad = Promise.promise();
  private final Ticker ticker;
  private final AtomicLong lastUnknownReload;
  private volatile Set<String> enabled = Set.of();
  private long refreshTimer = -1;

  TenantEntitlements(TenantConfig config, ModuleConfig module, Vertx vertx, @Named("keycloak") WebClient client,
    ServiceTokens tokens, RetryConfig retry, Ticker ticker) {
    this.ticker = ticker;
    this.lastUnknownReload = new AtomicLong(ticker.read());
    this.retry = retry;
    this.config = config;
    this.module = module;
    this.vertx = vertx;
    this.client = client;
    this.tokens = tokens;
  }

  void start(@Observes StartupEvent event) {
    if (!config.entitlementCheck()) {
      firstLoad.tryComplete();
      return;
    }
    refreshTimer = vertx.setPeriodic(config.refreshInterval().toMillis(), id -> reload());
    StartupWait.loadWithRetry(vertx, retry, this::reload, "tenant entitlements");
  }

  void stop(@Observes ShutdownEvent event) {
    if (refreshTimer >= 0) {
      vertx.cancelTimer(refreshTimer);
    }
  }

  /** Whether requests of this tenant may reach the module. An unknown tenant triggers a (throttled) reload. */
  public boolean allows(String tenant) {
    if (!config.entitlementCheck() || enabled.contains(tenant)) {
      return true;
    }
    long last = lastUnknownReload.get();
    long now = ticker.read();
    if (now - last >= config.unknownTenantReloadInterval().toNanos() && lastUnknownReload.compareAndSet(last, now)) {
      reload();
    }
    return false;
  }

  public boolean loaded() {
    return firstLoad.future().isComplete();
  }

  /** The entitled tenants' names, once the first load has completed (upstream v4's module entitlement endpoint). */
  public Future<Set<String>> entitledTenants() {
    return firstLoad.future().map(loadedNow -> enabled);
  }

  public synchronized void entitle(String tenant) {
    var copy = new HashSet<>(enabled);
    copy.add(tenant);
    enabled = Set.copyOf(copy);
  }

  public synchronized void revoke(String tenant) {
    var copy = new HashSet<>(enabled);
    copy.remove(tenant);
    enabled = Set.copyOf(copy);
  }

  /** Re-reads the entitled tenants; on failure the current set stays. */
  public Future<Set<String>> reload() {
    return tokens.token(ServiceTokens.MASTER)
      .compose(token -> tenantIds(token, 0, new ArrayList<>())
        .compose(ids -> tenantNames(token, ids)).map(names -> Set.copyOf(names)))
      .onSuccess(names -> {
        synchronized (this) {
          enabled = names;
        }
        firstLoad.tryComplete();
      });
  }

  private Future<List<String>> tenantIds(String token, int offset, List<String> ids) {
    var url = ConfigValidator.withoutTrailingSlash(config.entitlementsUrl()) + "/entitlements/modules/" + module.moduleId();
    return client.getAbs(url)
      .addQueryParam("limit", String.valueOf(config.entitlementsBatchSize()))
      .addQueryParam("offset", String.valueOf(offset))
      .putHeader("x-okapi-token", token).timeout(10_000).send()
      .compose(response -> {
        if (response.statusCode() != 200) {
          return Future.failedFuture(new IllegalStateException("mgr-tenant-entitlements answered " + response.statusCode()));
        }
        var body = response.bodyAsJsonObject();
        var page = body.getJsonArray("entitlements", new JsonArray());
        page.forEach(item -> ids.add(((JsonObject) item).getString("tenantId")));
        int total = body.getInteger("totalRecords", page.size());
        int next = offset + page.size();
        return page.isEmpty() || next >= total ? Future.succeededFuture(ids) : tenantIds(token, next, ids);
      });
  }

  private Future<List<String>> tenantNames(String token, List<String> ids) {
    var batches = new ArrayList<Future<List<String>>>();
    for (int from = 0; from < ids.size(); from += config.tenantsBatchSize()) {
      var batch = ids.subList(from, Math.min(ids.size(), from + config.tenantsBatchSize()));
      batches.add(tenantNamesOf(token, Set.copyOf(batch)));
    }
    return Future.all(batches).map(all -> {
      var names = new ArrayList<String>();
      for (int i = 0; i < batches.size(); i++) {
        names.addAll(all.<List<String>>resultAt(i));
      }
      return names;
    });
  }

  private Future<List<String>> tenantNamesOf(String token, Set<String> ids) {
    var query = new StringBuilder("id==(");
    int i = 0;
    for (var id : ids) {
      query.append(i++ == 0 ? "" : " or ").append('"').append(id).append('"');
    }
    query.append(')');
    return client.getAbs(ConfigValidator.withoutTrailingSlash(config.tenantsUrl()) + "/tenants")
      .addQueryParam("query", query.toString())
      .addQueryParam("limit", String.valueOf(ids.size()))
      .putHeader("x-okapi-token", token).timeout(10_000).send()
      .compose(response -> {
        if (response.statusCode() != 200) {
          return Future.failedFuture(new IllegalStateException("mgr-tenants answered " + response.statusCode()));
        }
        var names = new ArrayList<String>();
        response.bodyAsJsonObject().getJsonArray("tenants", new JsonArray()).forEach(item -> {
          var tenant = (JsonObject) item;
          if (ids.contains(tenant.getString("id"))) {
            names.add(tenant.getString("name"));
          }
        });
        return Future.succeededFuture(names);
      });
  }
}
