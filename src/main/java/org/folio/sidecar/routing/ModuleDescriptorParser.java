package org.folio.sidecar.routing;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Reads the endpoints a module provides. Accepts a FOLIO ModuleDescriptor ({@code provides[].handlers[]}) and
 * the mgr-applications bootstrap shape ({@code module.interfaces[].endpoints[]}), since operators have both.
 */
public final class ModuleDescriptorParser {

  private ModuleDescriptorParser() {
  }

  public static RoutingTable parse(JsonObject document) {
    var module = document.containsKey("module") ? document.getJsonObject("module") : document;
    var interfaces = firstArray(module, "provides", "interfaces");
    var entries = new ArrayList<RoutingEntry>();
    for (int i = 0; i < interfaces.size(); i++) {
      var anInterface = interfaces.getJsonObject(i);
      var interfaceId = anInterface.getString("id", "");
      var interfaceType = anInterface.getString("interfaceType", "");
      var endpoints = firstArray(anInterface, "handlers", "endpoints");
      for (int j = 0; j < endpoints.size(); j++) {
        entries.add(toEntry(interfaceId, interfaceType, endpoints.getJsonObject(j)));
      }
    }
    return new RoutingTable(entries);
  }

  private static RoutingEntry toEntry(String interfaceId, String interfaceType, JsonObject endpoint) {
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
    return RoutingEntry.of(interfaceId, interfaceType, staticPath, methods,
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
