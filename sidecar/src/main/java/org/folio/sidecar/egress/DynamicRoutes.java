package org.folio.sidecar.egress;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.regex.Pattern;
import org.folio.sidecar.config.ConfigValidator;
import org.folio.sidecar.config.EgressConfig;
import org.folio.sidecar.config.TenantConfig;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.platform.PlatformCallException;
import org.folio.sidecar.platform.PlatformClient;
import org.folio.sidecar.token.ServiceTokens;

/**
 * ROUTING_DYNAMIC_ENABLED: where an egress request with {@code x-okapi-module-hint} goes when no required
 * module's route matches. A versioned module id is used as it is; a bare name is resolved among the tenant's
 * entitled modules (exactly one must match). The location comes from mgr-applications' discovery, cached per
 * module id and refreshed by discovery events.
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
  private final AsyncCache<String, String> locations;

  DynamicRoutes(PlatformClient platform, EgressConfig egress, TenantConfig tenants) {
    this.platform = platform;
    this.applicationsUrl = ConfigValidator.withoutTrailingSlash(egress.applicationsUrl());
    this.entitlementsUrl = ConfigValidator.withoutTrailingSlash(tenants.entitlementsUrl());
    this.batchSize = tenants.entitlementsBatchSize();
    this.locations = Caffeine.newBuilder().maximumSize(egress.discoveryCacheMaxSize()).buildAsync();
  }

  public Future<Located> locate(String tenant, String hint) {
    if (hint.isBlank()) {
      return Future.failedFuture(SidecarError.unknown("Module hint header is present but empty: X-Okapi-Module-Hint"));
    }
    var moduleId = VERSIONED.matcher(hint).matches() ? Future.succeededFuture(hint) : entitledModuleId(tenant, hint);
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

  private Future<String> entitledModuleId(String tenant, String name) {
    var query = MultiMap.caseInsensitiveMultiMap()
      .add("tenant", tenant).add("limit", String.valueOf(batchSize)).add("includeModules", "true");
    return get("mgr-tenant-entitlements", entitlementsUrl + "/entitlements", query)
      .compose(body -> {
        var found = new ArrayList<String>();
        for (var entitlement : body.getJsonArray("entitlements", new JsonArray())) {
          for (var module : ((JsonObject) entitlement).getJsonArray("modules", new JsonArray())) {
            var matcher = VERSIONED.matcher(String.valueOf(module));
            if (matcher.matches() && matcher.group(1).equals(name)) {
              found.add(String.valueOf(module));
            }
          }
        }
        if (found.size() == 1) {
          return Future.succeededFuture(found.get(0));
        }
        return Future.failedFuture(SidecarError.unknown(found.isEmpty()
          ? "No entitled module found for name: moduleName = " + name + ", tenant = " + tenant
          : "Multiple entitled modules found for name: moduleName = " + name + ", foundModuleIds = " + found
            + ", tenant = " + tenant));
      });
  }

  private Future<String> discover(String moduleId) {
    var url = applicationsUrl + "/modules/" + moduleId + "/discovery";
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
