package org.folio.sidecar.routing;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Reads a module's endpoints. Accepts a FOLIO ModuleDescriptor ({@code provides[].handlers[]}, ingress only)
 * and the mgr-applications bootstrap ({@code module.interfaces[].endpoints[]} plus {@code requiredModules[]}
 * with their locations, for egress), since operators have both.
 */
public final class ModuleDescriptorParser {

  private ModuleDescriptorParser() {
  }

  public static ModuleRoutes parseRoutes(JsonObject document) {
    var module = document.containsKey("module") ? document.getJsonObject("module") : document;
    var ownId = module.getString("moduleId", module.getString("id", ""));
    var ingress = entries(ownId, module);
    var egress = new ArrayList<RoutingEntry>();
    var locations = new HashMap<String, String>();
    var required = document.getJsonArray("requiredModules", new JsonArray());
    for (int i = 0; i < required.size(); i++) {
      var dependency = required.getJsonObject(i);
      var moduleId = dependency.getString("moduleId", dependency.getString("id"));
      if (moduleId == null) {
        throw new IllegalArgumentException("a required module has no moduleId");
      }
      var location = dependency.getString("location");
      if (location != null && !location.isBlank()) {
        locations.put(moduleId, location);
      }
      egress.addAll(entries(moduleId, dependency));
    }
    return new ModuleRoutes(new RoutingTable(ingress), new RoutingTable(egress), locations);
  }

  private static List<RoutingEntry> entries(String moduleId, JsonObject module) {
    var interfaces = firstArray(module, "provides", "interfaces");
    var entries = new ArrayList<RoutingEntry>();
    for (int i = 0; i < interfaces.size(); i++) {
      var anInterface = interfaces.getJsonObject(i);
      var interfaceId = anInterface.getString("id", "");
      var interfaceType = anInterface.getString("interfaceType", "");
      var endpoints = firstArray(anInterface, "handlers", "endpoints");
      for (int j = 0; j < endpoints.size(); j++) {
        entries.add(toEntry(moduleId, interfaceId, interfaceType, endpoints.getJsonObject(j)));
      }
    }
    return entries;
  }

  private static RoutingEntry toEntry(String moduleId, String interfaceId, String interfaceType, JsonObject endpoint) {
    var path = endpoint.getString("path");
    var staticPath = path != null && !path.isEmpty() ? path : endpoint.getString("pathPattern");
    if (staticPath == null || staticPath.isEmpty()) {
      throw new IllegalArgumentException("endpoint of interface " + interfaceId + " has neither path nor pathPattern");
    }
    var methods = new LinkedHashSet<String>();
    for (var method : endpoint.getJsonArray("methods", new JsonArray())) {
      methods.add(String.valueOf(method).toUpperCase());
    }
    if (methods.isEmpty()) {
      throw new IllegalArgumentException("endpoint " + staticPath + " of interface " + interfaceId + " has no methods");
    }
    return RoutingEntry.of(moduleId, interfaceId, interfaceType, staticPath, methods,
      strings(endpoint, "permissionsRequired"), strings(endpoint, "permissionsDesired"),
      strings(endpoint, "modulePermissions"));
  }

  private static JsonArray firstArray(JsonObject object, String name, String alternative) {
    var array = object.getJsonArray(name);
    if (array == null) {
      array = object.getJsonArray(alternative);
    }
    return array != null ? array : new JsonArray();
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
