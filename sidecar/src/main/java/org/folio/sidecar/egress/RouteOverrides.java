package org.folio.sidecar.egress;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.vertx.core.Vertx;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.folio.sidecar.config.ConfigValidator;
import org.folio.sidecar.config.EgressConfig;
import org.jboss.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * Operator-configured locations that win over discovery, e.g. the DB-heavy modules run as a separate
 * deployment. From SIDECAR_ROUTE_OVERRIDES ({@code name=url,...}) and the JSON file SIDECAR_ROUTE_OVERRIDES_FILE
 * ({@code {"modules":{"mod-x":url},"interfaces":{"x-storage":url}}}, a mounted ConfigMap). The file is re-read
 * when its content changes; a broken edit is logged and the previous overrides stay in force.
 */
@Singleton
public class RouteOverrides {

  private static final Logger LOGGER = Logger.getLogger(RouteOverrides.class);

  /** Locations by module name and by interface id. */
  record Overrides(Map<String, String> modules, Map<String, String> interfaces) {
    static final Overrides NONE = new Overrides(Map.of(), Map.of());
  }

  private final Vertx vertx;
  private final EgressConfig config;
  private final Overrides fromEnvironment;
  private volatile Overrides fromFile = Overrides.NONE;
  private volatile @Nullable String fileContent;
  private long pollTimer = -1;

  RouteOverrides(Vertx vertx, EgressConfig config) {
    this.vertx = vertx;
    this.config = config;
    this.fromEnvironment = atStartUp(() -> parseList(config.routeOverrides().orElse("")));
  }

  void start(@Observes StartupEvent event) {
    var file = config.routeOverridesFile();
    if (file.isEmpty()) {
      return;
    }
    var content = read(file.get()).orElseThrow(
      () -> new ConfigurationException("SIDECAR_ROUTE_OVERRIDES_FILE '" + file.get() + "' cannot be read"));
    fromFile = atStartUp(() -> parseFile(content, "SIDECAR_ROUTE_OVERRIDES_FILE"));
    fileContent = content;
    pollTimer = vertx.setPeriodic(config.routeOverridesPollInterval().toMillis(), id -> poll(file.get()));
  }

  /** A parse error at start-up is a configuration error: it stops the sidecar with its message alone. */
  private static Overrides atStartUp(Supplier<Overrides> parse) {
    try {
      return parse.get();
    } catch (IllegalArgumentException e) {
      throw new ConfigurationException(e.getMessage());
    }
  }

  void stop(@Observes ShutdownEvent event) {
    if (pollTimer >= 0) {
      vertx.cancelTimer(pollTimer);
    }
  }

  /** The configured location for an interface, else for its module; empty when discovery decides. */
  public Optional<String> locationFor(String moduleName, String interfaceId) {
    var file = fromFile;
    var location = file.interfaces().get(interfaceId);
    if (location == null) {
      location = fromEnvironment.interfaces().get(interfaceId);
    }
    if (location == null) {
      location = file.modules().get(moduleName);
    }
    if (location == null) {
      location = fromEnvironment.modules().get(moduleName);
    }
    return Optional.ofNullable(location);
  }

  private void poll(String file) {
    vertx.executeBlocking(() -> read(file).orElse(null), false).onSuccess(content -> {
      if (content == null || content.equals(fileContent)) {
        return;
      }
      try {
        fromFile = parseFile(content, "SIDECAR_ROUTE_OVERRIDES_FILE");
        fileContent = content;
        LOGGER.infof("Route overrides reloaded from %s: %s", file, fromFile);
      } catch (IllegalArgumentException e) {
        fileContent = content;
        LOGGER.errorf("Route overrides in %s are invalid, keeping the previous ones: %s", file, e.getMessage());
      }
    });
  }

  private static Optional<String> read(String file) {
    try {
      return Optional.of(Files.readString(Path.of(file)));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  static Overrides parseList(String list) {
    var locations = new HashMap<String, String>();
    for (var item : list.split(",", -1)) {
      if (item.isBlank()) {
        continue;
      }
      int equals = item.indexOf('=');
      if (equals <= 0) {
        throw new IllegalArgumentException("SIDECAR_ROUTE_OVERRIDES entry '" + item.trim() + "' is not name=url");
      }
      var url = item.substring(equals + 1).trim();
      requireUrl("SIDECAR_ROUTE_OVERRIDES", url);
      locations.put(item.substring(0, equals).trim(), url);
    }
    // a name may be a module name or an interface id
    return new Overrides(Map.copyOf(locations), Map.copyOf(locations));
  }

  static Overrides parseFile(String content, String variable) {
    JsonObject json;
    try {
      json = new JsonObject(content);
    } catch (DecodeException e) {
      throw new IllegalArgumentException(variable + " is not JSON: " + e.getMessage());
    }
    return new Overrides(locations(json, "modules", variable), locations(json, "interfaces", variable));
  }

  private static Map<String, String> locations(JsonObject json, String field, String variable) {
    var section = json.getValue(field);
    if (section == null) {
      return Map.of();
    }
    if (!(section instanceof JsonObject object)) {
      throw new IllegalArgumentException(variable + ": '" + field + "' must be an object of name to URL");
    }
    var locations = new HashMap<String, String>();
    for (var name : object.fieldNames()) {
      var url = String.valueOf(object.getValue(name));
      requireUrl(variable, url);
      locations.put(name, url);
    }
    return Map.copyOf(locations);
  }

  private static void requireUrl(String variable, String url) {
    if (ConfigValidator.parseHttpUrl(url).isEmpty()) {
      throw new IllegalArgumentException(variable + ": '" + url + "' is not an absolute http(s) URL");
    }
  }
}
