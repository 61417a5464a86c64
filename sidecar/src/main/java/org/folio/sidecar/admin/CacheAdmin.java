package org.folio.sidecar.admin;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Singleton;
import java.time.Duration;
import org.folio.sidecar.authz.AuthorizationCache;
import org.folio.sidecar.authz.CacheLookup;
import org.folio.sidecar.config.AdminConfig;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.token.TenantNames;
import org.jspecify.annotations.Nullable;

/**
 * The decision cache seen and flushed by an operator: its counts and lifetimes, a bounded look-up of a tenant's,
 * user's or session's entries (ages and next re-check, never a token: the cache holds none), and a flush of any of
 * them or of everything, counted as evictions with cause EXPLICIT.
 */
@Singleton
public class CacheAdmin {

  static final String CACHE = "sidecar.authz.decisions";
  private static final int MAX_ID_LENGTH = 256;

  private final AuthorizationCache cache;
  private final AuthzCacheConfig config;
  private final MeterRegistry registry;
  private final int lookupLimit;

  CacheAdmin(AuthorizationCache cache, AuthzCacheConfig config, AdminConfig admin, MeterRegistry registry) {
    this.cache = cache;
    this.config = config;
    this.registry = registry;
    this.lookupLimit = Math.max(1, admin.lookupLimit());
  }

  AdminAnswer stats(HttpServerRequest request) {
    var evictions = new JsonObject();
    registry.find("cache.evictions").tag("cache", CACHE).meters()
      .forEach(meter -> evictions.put(meter.getId().getTag("cause"), (long) value(meter)));
    var body = new JsonObject()
      .put("mode", config.mode().name().toLowerCase(java.util.Locale.ROOT))
      .put("entries", (long) sum("cache.size", "cache", CACHE))
      .put("weightBytes", (long) sum("sidecar.cache.weight", "cache", "decisions"))
      .put("weightMaxBytes", (long) sum("sidecar.cache.weight.max", "cache", "decisions"))
      .put("hits", (long) sum("cache.gets", "cache", CACHE, "result", "hit"))
      .put("misses", (long) sum("cache.gets", "cache", CACHE, "result", "miss"))
      .put("evictions", evictions)
      .put("oldestGrantAgeSeconds", sum("sidecar.authz.decisions.oldest.grant.age"))
      .put("allowTtl", config.allowTtl().toString())
      .put("refreshAfter", config.refreshAfter().toString())
      .put("maxStaleness", config.maxStaleness().toString())
      .put("denyTtl", config.denyTtl().toString())
      .put("revocationBound", "a permission removed in Keycloak is still granted to a session that holds it for at "
        + "most " + config.allowTtl() + " (ALLOW_TTL), plus " + config.maxStaleness()
        + " (MAX_STALENESS) while Keycloak is unreachable; POST /admin/cache/flush ends it now");
    return AdminAnswer.of(body);
  }

  AdminAnswer lookup(HttpServerRequest request) {
    var tenant = tenant(request);
    var user = id(request, "user");
    var session = id(request, "session");
    int limit = lookupLimit;
    var asked = request.getParam("limit");
    if (asked != null) {
      try {
        limit = Math.min(lookupLimit, Math.max(1, Integer.parseInt(asked)));
      } catch (NumberFormatException e) {
        throw SidecarError.badRequest("limit must be a number");
      }
    }
    var found = cache.lookup(tenant, user, session, limit).orElseThrow(() -> new SidecarError(501,
      "NotImplementedException", "service_error", "The legacy cache mode keeps no index to look entries up by", null));
    var entries = new JsonArray();
    found.entries().forEach(entry -> entries.add(describe(entry)));
    var body = new JsonObject().put("tenant", tenant).put("user", user).put("session", session)
      .put("total", found.total()).put("shown", entries.size()).put("entries", entries);
    return new AdminAnswer(body, "matched=" + found.total());
  }

  AdminAnswer flush(HttpServerRequest request) {
    if ("true".equals(request.getParam("all"))) {
      int dropped = cache.invalidateAll();
      return flushed("all", dropped);
    }
    var tenant = tenant(request);
    var user = id(request, "user");
    var session = id(request, "session");
    if (user != null && session != null) {
      throw SidecarError.badRequest("Give user or session, not both");
    }
    if (session != null) {
      return flushed("session", cache.invalidateSession(tenant, session));
    }
    if (user != null) {
      return flushed("user", cache.invalidateUser(tenant, user));
    }
    return flushed("tenant", cache.invalidateTenant(tenant));
  }

  private static AdminAnswer flushed(String scope, int dropped) {
    return new AdminAnswer(new JsonObject().put("scope", scope).put("invalidated", dropped),
      "scope=" + scope + " invalidated=" + dropped);
  }

  private static JsonObject describe(CacheLookup.Entry entry) {
    return new JsonObject().put("permission", entry.permission()).put("client", entry.clientId())
      .put("user", entry.userId())
      .put("decision",
        entry.decision() == null ? "loading" : entry.decision().name().toLowerCase(java.util.Locale.ROOT))
      .put("ageSeconds", seconds(entry.age()))
      .put("recheckInSeconds", seconds(entry.recheckIn()))
      .put("expiresInSeconds", seconds(entry.expiresIn()));
  }

  private static @Nullable Double seconds(@Nullable Duration duration) {
    return duration == null ? null : Math.round(duration.toMillis() / 100.0) / 10.0;
  }

  private static String tenant(HttpServerRequest request) {
    var tenant = request.getParam("tenant");
    if (tenant == null) {
      throw SidecarError.badRequest("tenant is required (or all=true to flush everything)");
    }
    if (!TenantNames.isValid(tenant)) {
      throw SidecarError.badRequest("Invalid tenant");
    }
    return tenant;
  }

  private static @Nullable String id(HttpServerRequest request, String name) {
    var id = request.getParam(name);
    if (id != null
      && (id.isEmpty() || id.length() > MAX_ID_LENGTH || !id.chars().allMatch(c -> c > 0x20 && c < 0x7f))) {
      throw SidecarError.badRequest("Invalid " + name);
    }
    return id;
  }

  private double sum(String name, String... tags) {
    // a gauge whose object is gone reads NaN, which JSON cannot carry
    return registry.find(name).tags(tags).meters().stream().mapToDouble(CacheAdmin::value)
      .filter(value -> !Double.isNaN(value)).sum();
  }

  private static double value(Meter meter) {
    if (meter instanceof Counter counter) {
      return counter.count();
    }
    if (meter instanceof FunctionCounter counter) {
      return counter.count();
    }
    if (meter instanceof DistributionSummary summary) {
      return summary.count();
    }
    return meter instanceof Gauge gauge ? gauge.value() : 0;
  }
}
