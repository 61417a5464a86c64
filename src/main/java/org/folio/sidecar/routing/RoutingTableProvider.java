package org.folio.sidecar.routing;

import io.quarkus.runtime.Startup;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import jakarta.annotation.PostConstruct;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.folio.sidecar.config.ModuleConfig;
import org.jboss.logging.Logger;

/**
 * Holds the module's current routing table. Loaded at start-up from MODULE_DESCRIPTOR_PATH; a reload swaps the
 * whole table at once, so a request sees either the old table or the new one, never a mix.
 */
@Startup
@Singleton
public class RoutingTableProvider {

  private static final Logger LOGGER = Logger.getLogger(RoutingTableProvider.class);

  private final ModuleConfig moduleConfig;
  private volatile RoutingTable ingress = new RoutingTable(java.util.List.of());

  RoutingTableProvider(ModuleConfig moduleConfig) {
    this.moduleConfig = moduleConfig;
  }

  @PostConstruct
  void load() {
    var location = moduleConfig.descriptorPath().orElseThrow(() -> new IllegalStateException(
      "MODULE_DESCRIPTOR_PATH is not set: the sidecar needs the module's descriptor to know its endpoints"));
    try {
      ingress = ModuleDescriptorParser.parse(new JsonObject(Files.readString(Path.of(location))));
    } catch (IOException | DecodeException | IllegalArgumentException | ClassCastException e) {
      throw new IllegalStateException("MODULE_DESCRIPTOR_PATH '" + location + "' is not a readable module descriptor: "
        + e.getMessage(), e);
    }
    LOGGER.infof("Loaded %d endpoints of %s from %s", ingress.entries().size(), moduleConfig.moduleId(), location);
  }

  public RoutingTable ingress() {
    return ingress;
  }
}
