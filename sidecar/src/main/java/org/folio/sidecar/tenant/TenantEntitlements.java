package org.folio.sidecar.tenant;

import com.github.benmanes.caffeine.cache.Ticker;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.HashMap;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.folio.sidecar.config.ConfigValidator;
import org.folio.sidecar.config.ModuleConfig;
import org.folio.sidecar.config.RetryConfig;
import org.folio.sidecar.config.TenantConfig;
import org.folio.sidecar.platform.PeriodicReload;
import org.folio.sidecar.platform.StartupLoads;
import org.folio.sidecar.platform.PlatformClient;
import org.folio.sidecar.token.EntitledRealms;
import org.folio.sidecar.token.ServiceTokens;
import org.jboss.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * The tenants entitled to this module, by name. Loaded from mgr-tenant-entitlements (every page, unlike
 * upstream) and mgr-tenants, re-read periodically and on a request for an unknown tenant (throttled), and
 * changed at once by entitlement events. Reads are a lookup in an immutable set.
 */
@Singleton
public class TenantEntitlements implements EntitledRealms {

  private static final Logger LOGGER = Logger.getLogger(TenantEntitlements.class);

  private final TenantConfig config;
  private final ModuleConfig module;
  private final Vertx vertx;
  private final PlatformClient platform;
  private final RetryConfig retry;
  private final StartupLoads startup;
  private final Promise<Void> firstLoad = Promise.promise();
  private final Ticker ticker;
  private final AtomicLong lastUnknownReload;
  private volatile Set<String> enabled = Set.of();
  // each entitle or revoke event's number, and the latest per tenant: a reload that read its pages before an event
  // must not undo it (a REVOKE read back as entitled would let the tenant in again until the next reload)
  private long events;
  private final Map<String, TenantEvent> latestEvents = new HashMap<>();

  private record TenantEvent(long number, boolean entitled) {
  }
  private final List<Consumer<Set<String>>> listeners = new CopyOnWriteArrayList<>();
  private @Nullable PeriodicReload reloads;

  TenantEntitlements(TenantConfig config, ModuleConfig module, Vertx vertx, PlatformClient platform,
    RetryConfig retry, StartupLoads startup, Ticker ticker) {
    this.config = config;
    this.module = module;
    this.vertx = vertx;
    this.platform = platform;
    this.retry = retry;
    this.startup = startup;
    this.ticker = ticker;
    this.lastUnknownReload = new AtomicLong(ticker.read());
  }

  void start(@Observes StartupEvent event) {
    if (!config.entitlementCheck()) {
      firstLoad.tryComplete();
      // nothing is refused for want of an entitlement, but a tenant known to be entitled is a realm that exists:
      // its keys are fetched outside the budgets for made-up realm names (RealmKeys); without the managers
      // (local use) the load fails once and nothing else changes
      reload().onFailure(unavailable -> LOGGER.debugf("Entitled tenants not loaded with the check off: %s",
        unavailable.getMessage()));
      return;
    }
    reloads = PeriodicReload.start(vertx, retry, startup, config.refreshInterval(), this::reload,
      "tenant entitlements");
  }

  void stop(@Observes ShutdownEvent event) {
    if (reloads != null) {
      reloads.stop();
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

  /** Whether the tenant is entitled now, without the reload an unknown name triggers in {@link #allows}. */
  @Override
  public boolean entitled(String realm) {
    return enabled.contains(realm);
  }

  public boolean loaded() {
    return firstLoad.future().isComplete();
  }

  /** The entitled tenants' names, once the first load has completed (upstream v4's module entitlement endpoint). */
  public Future<Set<String>> entitledTenants() {
    return firstLoad.future().map(loadedNow -> enabled);
  }

  public synchronized void entitle(String tenant) {
    latestEvents.put(tenant, new TenantEvent(++events, true));
    var copy = new HashSet<>(enabled);
    copy.add(tenant);
    replace(Set.copyOf(copy));
  }

  public synchronized void revoke(String tenant) {
    latestEvents.put(tenant, new TenantEvent(++events, false));
    var copy = new HashSet<>(enabled);
    copy.remove(tenant);
    replace(Set.copyOf(copy));
  }

  /**
   * Tells {@code listener} the entitled tenants whenever they change, in order, and at once when they are
   * already loaded. It is called under this object's lock, so it must not block.
   */
  public synchronized void onChange(Consumer<Set<String>> listener) {
    listeners.add(listener);
    if (loaded()) {
      listener.accept(enabled);
    }
  }

  private void replace(Set<String> names) {
    boolean changed = !names.equals(enabled);
    enabled = names;
    if (changed) {
      listeners.forEach(listener -> listener.accept(names));
    }
  }

  /** Re-reads the entitled tenants; on failure the current set stays. */
  public Future<Set<String>> reload() {
    var url = ConfigValidator.withoutTrailingSlash(config.entitlementsUrl()) + "/entitlements/modules/"
      + module.moduleId();
    long startedAfter;
    synchronized (this) {
      startedAfter = events;
    }
    return platform.getAll("mgr-tenant-entitlements", url, "entitlements", config.entitlementsBatchSize())
      .map(entitlements -> entitlements.stream().map(entitlement -> entitlement.getString("tenantId")).toList())
      .compose(this::tenantNames)
      .map(Set::copyOf)
      .map(names -> {
        synchronized (this) {
          var current = new HashSet<>(names);
          latestEvents.forEach((tenant, event) -> {
            if (event.number() > startedAfter) {
              if (event.entitled()) {
                current.add(tenant);
              } else {
                current.remove(tenant);
              }
            }
          });
          var loadedNames = Set.copyOf(current);
          if (loaded()) {
            replace(loadedNames);
          } else {
            enabled = loadedNames;
            firstLoad.tryComplete();
            // listeners registered before the first load have not been told the tenants yet
            listeners.forEach(listener -> listener.accept(loadedNames));
          }
          return loadedNames;
        }
      });
  }

  private Future<List<String>> tenantNames(List<String> ids) {
    var batches = new ArrayList<Future<List<String>>>();
    for (int from = 0; from < ids.size(); from += config.tenantsBatchSize()) {
      var batch = ids.subList(from, Math.min(ids.size(), from + config.tenantsBatchSize()));
      batches.add(tenantNamesOf(Set.copyOf(batch)));
    }
    return Future.all(batches).map(all -> {
      var names = new ArrayList<String>();
      for (int i = 0; i < batches.size(); i++) {
        names.addAll(all.<List<String>>resultAt(i));
      }
      return names;
    });
  }

  private Future<List<String>> tenantNamesOf(Set<String> ids) {
    var query = new StringBuilder("id==(");
    int i = 0;
    for (var id : ids) {
      query.append(i++ == 0 ? "" : " or ").append('"').append(id).append('"');
    }
    query.append(')');
    var params = MultiMap.caseInsensitiveMultiMap()
      .add("query", query.toString())
      .add("limit", String.valueOf(ids.size()));
    var url = ConfigValidator.withoutTrailingSlash(config.tenantsUrl()) + "/tenants";
    return platform.get("mgr-tenants", ServiceTokens.MASTER, url, params).map(body -> {
      var names = new ArrayList<String>();
      body.getJsonArray("tenants", new JsonArray()).forEach(item -> {
        var tenant = (JsonObject) item;
        if (ids.contains(tenant.getString("id"))) {
          names.add(tenant.getString("name"));
        }
      });
      return names;
    });
  }
}
