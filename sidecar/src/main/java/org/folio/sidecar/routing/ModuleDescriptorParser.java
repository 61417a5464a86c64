package org.folio.sidecar.routing;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import org.jboss.logging.Logger;

/**
 * Reads a module's endpoints. Accepts a FOLIO ModuleDescriptor ({@code provides[].handlers[]}, ingress only)
 * and the mgr-applications bootstrap ({@code module.interfaces[].endpoints[]} plus {@code requiredModules[]}
 * with their locations, for egress), since operators have both. Like upstream, one odd endpoint (no methods,
 * no path, a field of the wrong type) does not stop the rest: it is skipped with a WARN naming it.
 */
public final class ModuleDescriptorParser {

  private static final Logger LOGGER = Logger.getLogger(ModuleDescriptorParser.class);

  private ModuleDescriptorParser() {
  }

  /** The routes of {@code document}; an {@link IllegalArgumentException} only when it is no descriptor at all. */
  public static ModuleRoutes parseRoutes(JsonObject document) {
    var module = document.containsKey("module") ? objectOrFail(document, "module") : document;
    var ownId = module.getString("moduleId", module.getString("id", ""));
    var ingress = entries(ownId, module);
    var egress = new ArrayList<RoutingEntry>();
    var locations = new HashMap<String, String>();
    var required = document.getJsonArray("requiredModules", new JsonArray());
    for (int i = 0; i < required.size(); i++) {
      if (!(required.getValue(i) instanceof JsonObject dependency)) {
        LOGGER.warnf("Skipping required module #%d of the bootstrap: not an object", i);
        continue;
      }
      var moduleId = dependency.getValue("moduleId", dependency.getValue("id"));
      if (!(moduleId instanceof String id) || id.isBlank()) {
        LOGGER.warnf("Skipping required module #%d of the bootstrap: it has no moduleId", i);
        continue;
      }
      if (dependency.getValue("location") instanceof String location && !location.isBlank()) {
        locations.put(id, location);
      }
      egress.addAll(entries(id, dependency));
    }
    boolean systemUserRequired = Boolean.TRUE.equals(module.getValue("systemUserRequired"));
    return new ModuleRoutes(new RoutingTable(ingress), new RoutingTable(egress), locations, systemUserRequired);
  }

  private static JsonObject objectOrFail(JsonObject document, String name) {
    if (document.getValue(name) instanceof JsonObject object) {
      return object;
    }
    throw new IllegalArgumentException("'" + name + "' is not an object");
  }

  private static List<RoutingEntry> entries(String moduleId, JsonObject module) {
    var interfaces = firstArray(module, "provides", "interfaces");
    var entries = new ArrayList<RoutingEntry>();
    for (int i = 0; i < interfaces.size(); i++) {
      if (!(interfaces.getValue(i) instanceof JsonObject anInterface)) {
        LOGGER.warnf("Skipping interface #%d of %s: not an object", i, moduleId);
        continue;
      }
      var interfaceId = String.valueOf(anInterface.getValue("id", ""));
      var interfaceType = String.valueOf(anInterface.getValue("interfaceType", ""));
      var endpoints = firstArray(anInterface, "handlers", "endpoints");
      for (int j = 0; j < endpoints.size(); j++) {
        try {
          entries.add(toEntry(moduleId, interfaceId, interfaceType, endpoints.getValue(j)));
        } catch (IllegalArgumentException | ClassCastException e) {
          LOGGER.warnf("Skipping endpoint #%d of interface %s of %s: %s", j, interfaceId, moduleId, e.getMessage());
        }
      }
    }
    return entries;
  }

  private static RoutingEntry toEntry(String moduleId, String interfaceId, String interfaceType, Object value) {
    if (!(value instanceof JsonObject endpoint)) {
      throw new IllegalArgumentException("not an object");
    }
    var path = endpoint.getString("path");
    var staticPath = path != null && !path.isEmpty() ? path : endpoint.getString("pathPattern");
    if (staticPath == null || staticPath.isEmpty() || staticPath.charAt(0) != '/') {
      throw new IllegalArgumentException("it has neither a path nor a pathPattern starting with /");
    }
    var methods = new LinkedHashSet<String>();
    for (var method : endpoint.getJsonArray("methods", new JsonArray())) {
      if (method instanceof String name && !name.isBlank()) {
        methods.add(name.trim().toUpperCase(Locale.ROOT));
      }
    }
    if (methods.isEmpty()) {
      throw new IllegalArgumentException(staticPath + " has no methods");
    }
    return RoutingEntry.of(moduleId, interfaceId, interfaceType, staticPath, methods,
      strings(endpoint, "permissionsRequired"), strings(endpoint, "permissionsDesired"),
      strings(endpoint, "modulePermissions"));
  }

  private static JsonArray firstArray(JsonObject object, String name, String alternative) {
    var value = object.getValue(name);
    if (value == null) {
      value = object.getValue(alternative);
    }
    return value instanceof JsonArray array ? array : new JsonArray();
  }

  private static List<String> strings(JsonObject object, String name) {
    var array = object.getJsonArray(name);
    var values = new ArrayList<String>();
    if (array != null) {
      array.forEach(value -> values.add(String.valueOf(value)));
    }
    return values;
  }
}
