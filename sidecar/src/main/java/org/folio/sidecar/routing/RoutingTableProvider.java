package org.folio.sidecar.routing;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.ObserverMethod;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.folio.sidecar.config.ConfigValidator;
import org.folio.sidecar.config.EgressConfig;
import org.folio.sidecar.config.ModuleConfig;
import org.folio.sidecar.config.RetryConfig;
import org.folio.sidecar.platform.PeriodicReload;
import org.folio.sidecar.platform.StartupLoads;
import org.folio.sidecar.platform.PlatformClient;
import org.jboss.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * Holds the module's current routes. From MODULE_DESCRIPTOR_PATH when set (local use, tests), otherwise from
 * mgr-applications ({@code GET AM_CLIENT_URL/modules/<id>}, or {@code .../bootstrap} with tenant-scoped routing;
 * admin token), retried until it answers and
 * re-read every SIDECAR_DISCOVERY_REFRESH_INTERVAL. A reload swaps everything at once: a request sees the old
 * routes or the new ones, never a mix, and a failed reload keeps the old ones.
 */
@Singleton
public class RoutingTableProvider {

  private static final Logger LOGGER = Logger.getLogger(RoutingTableProvider.class);

  private final ModuleConfig moduleConfig;
  private final EgressConfig egressConfig;
  private final Vertx vertx;
  private final PlatformClient platform;
  private final RetryConfig retry;
  private final StartupLoads startup;
  private volatile ModuleRoutes routes = ModuleRoutes.NONE;
  private volatile boolean loaded;
  private @Nullable PeriodicReload reloads;

  RoutingTableProvider(ModuleConfig moduleConfig, EgressConfig egressConfig, Vertx vertx, PlatformClient platform,
    RetryConfig retry, StartupLoads startup) {
    this.moduleConfig = moduleConfig;
    this.egressConfig = egressConfig;
    this.vertx = vertx;
    this.platform = platform;
    this.retry = retry;
    this.startup = startup;
  }

  // before the other start-up observers: a bad descriptor file is a configuration error and stops the sidecar
  // before anything else has started
  void start(@Observes @Priority(ObserverMethod.DEFAULT_PRIORITY - 1) StartupEvent event) {
    var file = moduleConfig.descriptorPath();
    if (file.isPresent()) {
      routes = fromFile(file.get());
      loaded = true;
      return;
    }
    reloads = PeriodicReload.start(vertx, retry, startup, egressConfig.discoveryRefreshInterval(), this::reload,
      "routes from mgr-applications");
  }

  void stop(@Observes ShutdownEvent event) {
    if (reloads != null) {
      reloads.stop();
    }
  }

  private ModuleRoutes fromFile(String location) {
    try {
      var parsed = ModuleDescriptorParser.parseRoutes(new JsonObject(Files.readString(Path.of(location))));
      LOGGER.infof("Loaded %d endpoints of %s and %d of its dependencies from %s", parsed.ingress().entries().size(),
        moduleConfig.moduleId(), parsed.egress().entries().size(), location);
      return parsed;
    } catch (IOException | DecodeException | IllegalArgumentException | ClassCastException e) {
      // no cause: Quarkus prints a ConfigurationException's message alone, but only when it is the root cause
      throw new ConfigurationException("MODULE_DESCRIPTOR_PATH '" + location + "' is not a readable module descriptor: "
        + e.getMessage());
    }
  }

  /** Re-reads the routes from their source now (the events issue calls this on discovery events). */
  public Future<ModuleRoutes> reload() {
    var file = moduleConfig.descriptorPath();
    if (file.isPresent()) {
      return vertx.executeBlocking(() -> fromFile(file.get())).onSuccess(this::swap);
    }
    // tenant-scoped routing: the module's own routes only; each tenant's egress comes from TenantEgressRoutes
    var url = ConfigValidator.withoutTrailingSlash(egressConfig.applicationsUrl()) + "/modules/"
      + moduleConfig.moduleId() + (egressConfig.tenantScopedRouting() ? "/bootstrap" : "");
    return platform.get("mgr-applications", url).map(ModuleDescriptorParser::parseRoutes).onSuccess(this::swap);
  }

  private void swap(ModuleRoutes fresh) {
    if (!loaded) {
      LOGGER.infof("Loaded %d endpoints of %s and %d of its dependencies; system user required: %s",
        fresh.ingress().entries().size(), moduleConfig.moduleId(), fresh.egress().entries().size(),
        fresh.systemUserRequired());
    }
    routes = fresh;
    loaded = true;
  }

  public ModuleRoutes routes() {
    return routes;
  }

  /** False until the first bootstrap succeeded; requests meanwhile get 503. */
  public boolean loaded() {
    return loaded;
  }
}
