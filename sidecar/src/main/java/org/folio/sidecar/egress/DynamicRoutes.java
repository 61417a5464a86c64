package org.folio.sidecar.egress;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Singleton;
import com.github.benmanes.caffeine.cache.Ticker;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.folio.sidecar.config.ConfigValidator;
import org.folio.sidecar.config.EgressConfig;
import org.folio.sidecar.config.TenantConfig;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.platform.PlatformCallException;
import org.folio.sidecar.platform.PlatformClient;
import org.folio.sidecar.token.ServiceTokens;
import org.jspecify.annotations.Nullable;

/**
 * ROUTING_DYNAMIC_ENABLED: where an egress request with {@code x-okapi-module-hint} goes when no required
 * module's route matches. The hint must be a module name or module id (nothing else reaches a manager's URL, and
 * it goes there as one encoded path segment). Either form must name a module the tenant is entitled to: a bare
 * name resolves among the tenant's entitled modules (exactly one must match), a versioned id must be one of them.
 * The tenant's entitled modules are cached for ROUTING_DYNAMIC_ENTITLEMENTS_CACHE_TTL, a failed lookup too. The
 * location comes from mgr-applications' discovery, cached per module id and refreshed by discovery events.
 */
@Singleton
public class DynamicRoutes {

  /** Where a hinted module was found. */
  public record Located(String moduleId, String location) {
  }

  // name-MAJOR.MINOR.PATCH with optional pre-release and build parts, as FOLIO module ids are
  private static final Pattern VERSIONED = Pattern.compile(
    "^(.+)-(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(-[0-9A-Za-z-]+(\\.[0-9A-Za-z-]+)*)?(\\+[0-9A-Za-z.-]+)?$");

  private final PlatformClient platform;
  private final String applicationsUrl;
  private final String entitlementsUrl;
  private final int batchSize;
  // tenants whose entitled modules are kept: more than any platform has, each a short list
  private static final long MAX_TENANTS = 10_000;
  // a FOLIO module name: letters, digits, '_' and '-', starting with a letter
  private static final Pattern NAME = Pattern.compile("^[A-Za-z][A-Za-z0-9_-]*$");

  /** A tenant's entitled module ids, or why they could not be had; cached either way. */
  private record Entitled(List<String> moduleIds, @Nullable SidecarError failure) {
  }

  private final AsyncCache<String, String> locations;
  private final AsyncCache<String, Entitled> entitled;

  DynamicRoutes(PlatformClient platform, EgressConfig egress, TenantConfig tenants, Ticker ticker) {
    this.platform = platform;
    this.applicationsUrl = ConfigValidator.withoutTrailingSlash(egress.applicationsUrl());
    this.entitlementsUrl = ConfigValidator.withoutTrailingSlash(tenants.entitlementsUrl());
    this.batchSize = tenants.entitlementsBatchSize();
    this.locations = Caffeine.newBuilder().maximumSize(egress.discoveryCacheMaxSize()).buildAsync();
    this.entitled = Caffeine.newBuilder().maximumSize(MAX_TENANTS).ticker(ticker)
      .expireAfterWrite(egress.dynamicRoutingEntitlementsTtl()).buildAsync();
  }

  public Future<Located> locate(String tenant, String hint) {
    if (hint.isBlank()) {
      return Future
        .failedFuture(SidecarError.badRequest("Module hint header is present but empty: X-Okapi-Module-Hint"));
    }
    var versioned = VERSIONED.matcher(hint);
    boolean isId = versioned.matches() && NAME.matcher(versioned.group(1)).matches();
    if (!isId && !NAME.matcher(hint).matches()) {
      return Future.failedFuture(SidecarError.badRequest("Invalid module hint: X-Okapi-Module-Hint",
        "not a module name or id"));
    }
    var moduleId = entitledModuleId(tenant, hint, isId);
    return moduleId.compose(id -> Future.fromCompletionStage(
      locations.get(id, (key, executor) -> discover(key).toCompletionStage().toCompletableFuture()))
      .map(location -> new Located(id, location)));
  }

  /** A discovery event: a cached location of {@code moduleId} is re-read; false when none is cached. */
  public boolean refresh(String moduleId) {
    if (locations.getIfPresent(moduleId) == null) {
      return false;
    }
    locations.put(moduleId, discover(moduleId).toCompletionStage().toCompletableFuture());
    return true;
  }

  /** A tenant's entitlement changed: its cached module ids are read again on the next hint. */
  public void forgetTenant(String tenant) {
    entitled.synchronous().invalidate(tenant);
  }

  /** The entitled module id the hint names: the id itself, or the one entitled module of that name. */
  private Future<String> entitledModuleId(String tenant, String hint, boolean isId) {
    return entitledModules(tenant).compose(ids -> {
      var found = new ArrayList<String>();
      for (var id : ids) {
        var matcher = VERSIONED.matcher(id);
        if (isId ? id.equals(hint) : matcher.matches() && matcher.group(1).equals(hint)) {
          found.add(id);
        }
      }
      if (found.size() == 1) {
        return Future.succeededFuture(found.get(0));
      }
      // upstream's messages, with client-error statuses (upstream: 500), so that a caller does not retry them
      if (found.isEmpty()) {
        return Future.failedFuture(isId
          ? SidecarError.discoveryNotFound(hint, "the tenant is not entitled to the hinted module")
          : SidecarError.hintNotResolved(404, "No entitled module found for name: moduleName = " + hint
            + ", tenant = " + tenant, "the tenant is not entitled to a module of that name"));
      }
      return Future.failedFuture(SidecarError.hintNotResolved(409, "Multiple entitled modules found for name: "
        + "moduleName = " + hint + ", foundModuleIds = " + found + ", tenant = " + tenant,
        "name the module by its id"));
    });
  }

  private Future<List<String>> entitledModules(String tenant) {
    return Future.fromCompletionStage(entitled.get(tenant, (t, executor) -> lookUpEntitled(t)
      .transform(result -> Future.succeededFuture(result.succeeded()
        ? new Entitled(result.result(), null)
        : new Entitled(List.of(), result.cause() instanceof SidecarError error
          ? error
          : SidecarError.internal(result.cause().getClass().getSimpleName()))))
      .toCompletionStage().toCompletableFuture()))
      .compose(found -> found.failure() == null
        ? Future.succeededFuture(found.moduleIds())
        : Future.failedFuture(found.failure()));
  }

  private Future<List<String>> lookUpEntitled(String tenant) {
    var query = MultiMap.caseInsensitiveMultiMap()
      .add("tenant", tenant).add("limit", String.valueOf(batchSize)).add("includeModules", "true");
    return get("mgr-tenant-entitlements", entitlementsUrl + "/entitlements", query).map(body -> {
      var ids = new ArrayList<String>();
      for (var entitlement : body.getJsonArray("entitlements", new JsonArray())) {
        for (var module : ((JsonObject) entitlement).getJsonArray("modules", new JsonArray())) {
          ids.add(String.valueOf(module));
        }
      }
      return List.copyOf(ids);
    });
  }

  private Future<String> discover(String moduleId) {
    // the id was checked against the module-id grammar; encoded all the same, as the one path segment it is
    var url = applicationsUrl + "/modules/" + URLEncoder.encode(moduleId, StandardCharsets.UTF_8) + "/discovery";
    return get("mgr-applications", url, MultiMap.caseInsensitiveMultiMap()).compose(body -> {
      var location = body.getString("location");
      return location == null || location.isBlank()
        ? Future.failedFuture(SidecarError.locationNotFound(moduleId))
        : Future.succeededFuture(location);
    }, error -> Future.failedFuture(error instanceof SidecarError failed && failed.status() == 404
      ? SidecarError.discoveryNotFound(moduleId)
      : error));
  }

  // on a request's path: a manager's failure is the request's error, in upstream's format
  private Future<JsonObject> get(String service, String url, MultiMap query) {
    return platform.get(service, ServiceTokens.MASTER, url, query).recover(error -> Future.failedFuture(switch (error) {
      case PlatformCallException failed -> SidecarError.managerFailed(failed.status(), failed.description());
      case SidecarError sidecar -> sidecar;
      default -> SidecarError.managerFailed(PlatformCallException.UNREACHABLE,
        service + " unreachable: " + error.getClass().getSimpleName());
    }));
  }
}
