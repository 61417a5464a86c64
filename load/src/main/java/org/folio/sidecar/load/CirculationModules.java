package org.folio.sidecar.load;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The six modules of the load run and what they provide and require: enough of FOLIO's circulation for a
 * check-out and a check-in to cross the same sidecars, with the same permissions, as in production.
 * mod-circulation-storage is folded into the inventory-storage stub (loan policies, requests, loans) to keep the
 * run at six sidecars on two cores; the calls and their permissions are those of a real check-out.
 */
public final class CirculationModules {

  public record Endpoint(String method, String path, String permission) {
  }

  public record Module(String name, String version, String interfaceId, List<Endpoint> endpoints,
    List<String> requires) {

    public String id() {
      return name + "-" + version;
    }
  }

  public static final Module CIRCULATION = new Module("mod-circulation", "24.0.0", "circulation", List.of(
    new Endpoint("POST", "/circulation/check-out-by-barcode", "circulation.check-out-by-barcode.post"),
    new Endpoint("POST", "/circulation/check-in-by-barcode", "circulation.check-in-by-barcode.post")),
    List.of("mod-users", "mod-feesfines", "mod-inventory", "mod-inventory-storage"));
  public static final Module USERS = new Module("mod-users", "19.0.0", "users", List.of(
    new Endpoint("GET", "/users/{id}", "users.item.get")), List.of());
  public static final Module FEESFINES = new Module("mod-feesfines", "19.0.0", "feesfines", List.of(
    new Endpoint("GET", "/manualblocks", "manualblocks.collection.get"),
    new Endpoint("GET", "/accounts", "accounts.collection.get")), List.of());
  public static final Module INVENTORY = new Module("mod-inventory", "20.0.0", "inventory", List.of(
    new Endpoint("GET", "/inventory/items", "inventory.items.collection.get"),
    new Endpoint("POST", "/inventory/import", "inventory.import.post")),
    List.of("mod-source-record-storage", "mod-inventory-storage"));
  public static final Module INVENTORY_STORAGE = new Module("mod-inventory-storage", "27.0.0", "item-storage", List.of(
    new Endpoint("PUT", "/item-storage/items/{id}", "inventory-storage.items.item.put"),
    new Endpoint("POST", "/instance-storage/instances", "inventory-storage.instances.item.post"),
    new Endpoint("GET", "/loan-policy-storage/loan-policies/{id}", "circulation-storage.loan-policies.item.get"),
    new Endpoint("GET", "/request-storage/requests", "circulation-storage.requests.collection.get"),
    new Endpoint("GET", "/loan-storage/loans", "circulation-storage.loans.collection.get"),
    new Endpoint("POST", "/loan-storage/loans", "circulation-storage.loans.item.post"),
    new Endpoint("PUT", "/loan-storage/loans/{id}", "circulation-storage.loans.item.put")), List.of());
  public static final Module SOURCE_RECORD_STORAGE = new Module("mod-source-record-storage", "5.9.0",
    "source-storage-records", List.of(new Endpoint("POST", "/source-storage/records", "source-storage.records.post")),
    List.of());

  public static final List<Module> ALL = List.of(CIRCULATION, USERS, FEESFINES, INVENTORY, INVENTORY_STORAGE,
    SOURCE_RECORD_STORAGE);

  /** What staff users are granted: the calls the load generator makes as a user. The rest is for modules only. */
  public static final Set<String> STAFF_PERMISSIONS = Set.of("circulation.check-out-by-barcode.post",
    "circulation.check-in-by-barcode.post", "inventory.import.post", "users.item.get");

  private CirculationModules() {
  }

  public static Module byName(String name) {
    return ALL.stream().filter(module -> module.name().equals(name)).findFirst().orElseThrow();
  }

  /** Keycloak resources as mgr-tenant-entitlements creates them: one per path, its methods as scopes. */
  public static Map<String, Set<String>> resources() {
    var resources = new LinkedHashMap<String, Set<String>>();
    for (var module : ALL) {
      for (var endpoint : module.endpoints()) {
        resources.computeIfAbsent(endpoint.path(), path -> new java.util.LinkedHashSet<>()).add(endpoint.method());
      }
    }
    return resources;
  }

  /**
   * mgr-applications' bootstrap of {@code module}: its interface, and each module it requires with the
   * location discovery gives for it ({@code locations} by module name).
   */
  public static JsonObject bootstrap(Module module, Map<String, String> locations) {
    var required = new JsonArray();
    for (var name : module.requires()) {
      var target = byName(name);
      required.add(new JsonObject().put("moduleId", target.id()).put("location", locations.get(name))
        .put("interfaces", new JsonArray().add(anInterface(target, "endpoints"))));
    }
    return new JsonObject()
      .put("module", new JsonObject().put("moduleId", module.id())
        .put("interfaces", new JsonArray().add(anInterface(module, "endpoints"))))
      .put("requiredModules", required);
  }

  private static JsonObject anInterface(Module module, String listName) {
    var handlers = new JsonArray();
    for (var endpoint : module.endpoints()) {
      handlers.add(new JsonObject().put("methods", new JsonArray().add(endpoint.method()))
        .put("pathPattern", endpoint.path())
        .put("permissionsRequired", new JsonArray().add(endpoint.permission())));
    }
    return new JsonObject().put("id", module.interfaceId()).put("version", "1.0").put(listName, handlers);
  }
}
