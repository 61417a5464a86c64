package org.folio.sidecar.load.fleet;

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

  /**
   * One handler of a module. {@code desired} is its {@code permissionsDesired}: the sidecar in front of it asks
   * mod-users-keycloak which of them the calling user holds, on every request upstream, rarely here.
   */
  public record Endpoint(String method, String path, String permission, List<String> desired) {

    Endpoint(String method, String path, String permission) {
      this(method, path, permission, List.of());
    }
  }

  public record Module(String name, String version, String interfaceId, List<Endpoint> endpoints,
    List<String> requires) {

    public String id() {
      return name + "-" + version;
    }
  }

  // check-out's desired permissions are the block overrides mod-circulation reads from x-okapi-permissions
  public static final Endpoint CHECK_OUT = new Endpoint("POST", "/circulation/check-out-by-barcode",
    "circulation.check-out-by-barcode.post", List.of("circulation.override-item-limit-block.post",
      "circulation.override-patron-block.post", "circulation.override-item-not-loanable-block.post"));
  public static final Endpoint CHECK_IN = new Endpoint("POST", "/circulation/check-in-by-barcode",
    "circulation.check-in-by-barcode.post");
  static final Endpoint USER = new Endpoint("GET", "/users/{id}", "users.item.get", List.of("users.item.get.*"));
  static final Endpoint MANUAL_BLOCKS = new Endpoint("GET", "/manualblocks", "manualblocks.collection.get");
  static final Endpoint ACCOUNTS = new Endpoint("GET", "/accounts", "accounts.collection.get");
  static final Endpoint ITEMS = new Endpoint("GET", "/inventory/items", "inventory.items.collection.get");
  static final Endpoint IMPORT = new Endpoint("POST", "/inventory/import", "inventory.import.post");
  public static final Endpoint ITEM_PUT = new Endpoint("PUT", "/item-storage/items/{id}",
    "inventory-storage.items.item.put");
  static final Endpoint INSTANCE_POST = new Endpoint("POST", "/instance-storage/instances",
    "inventory-storage.instances.item.post");
  static final Endpoint LOAN_POLICY = new Endpoint("GET", "/loan-policy-storage/loan-policies/{id}",
    "circulation-storage.loan-policies.item.get");
  public static final Endpoint REQUESTS = new Endpoint("GET", "/request-storage/requests",
    "circulation-storage.requests.collection.get");
  public static final Endpoint LOANS = new Endpoint("GET", "/loan-storage/loans",
    "circulation-storage.loans.collection.get");
  public static final Endpoint LOAN_POST = new Endpoint("POST", "/loan-storage/loans",
    "circulation-storage.loans.item.post");
  static final Endpoint LOAN_PUT = new Endpoint("PUT", "/loan-storage/loans/{id}",
    "circulation-storage.loans.item.put");
  public static final Endpoint RECORD_POST = new Endpoint("POST", "/source-storage/records",
    "source-storage.records.post");

  public static final Module CIRCULATION = new Module("mod-circulation", "24.0.0", "circulation",
    List.of(CHECK_OUT, CHECK_IN), List.of("mod-users", "mod-feesfines", "mod-inventory", "mod-inventory-storage"));
  public static final Module USERS = new Module("mod-users", "19.0.0", "users", List.of(USER), List.of());
  public static final Module FEESFINES = new Module("mod-feesfines", "19.0.0", "feesfines",
    List.of(MANUAL_BLOCKS, ACCOUNTS), List.of());
  public static final Module INVENTORY = new Module("mod-inventory", "20.0.0", "inventory", List.of(ITEMS, IMPORT),
    List.of("mod-source-record-storage", "mod-inventory-storage"));
  public static final Module INVENTORY_STORAGE = new Module("mod-inventory-storage", "27.0.0", "item-storage",
    List.of(ITEM_PUT, INSTANCE_POST, LOAN_POLICY, REQUESTS, LOANS, LOAN_POST, LOAN_PUT), List.of());
  public static final Module SOURCE_RECORD_STORAGE = new Module("mod-source-record-storage", "5.9.0",
    "source-storage-records", List.of(RECORD_POST), List.of());

  /** What the load generator's users ask for; everything else is a module's call with the tenant's service token. */
  public static final List<Endpoint> USER_TRANSACTIONS = List.of(CHECK_OUT, CHECK_IN, IMPORT);

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
        .put("permissionsRequired", new JsonArray().add(endpoint.permission()))
        .put("permissionsDesired", new JsonArray(endpoint.desired())));
    }
    return new JsonObject().put("id", module.interfaceId()).put("version", "1.0").put(listName, handlers);
  }
}
