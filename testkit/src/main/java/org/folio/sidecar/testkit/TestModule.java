package org.folio.sidecar.testkit;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The module the tests put behind the sidecar: its descriptor is what the sidecar routes by and what the
 * Keycloak realms get one authorization resource per path from, as mgr-tenant-entitlements does.
 */
public final class TestModule {

  public static final String NAME = "mod-items";
  public static final String VERSION = "1.0.0";

  private TestModule() {
  }

  public static JsonObject descriptor() {
    return new JsonObject()
      .put("id", NAME + "-" + VERSION)
      .put("name", NAME)
      .put("provides", new JsonArray()
        .add(new JsonObject().put("id", "items").put("version", "1.0").put("handlers", new JsonArray()
          .add(handler("GET", "/items", "items.collection.get"))
          .add(handler("POST", "/items", "items.item.post"))
          .add(handler("GET", "/items/{id}", "items.item.get"))
          .add(handler("PUT", "/items/{id}", "items.item.put"))
          .add(handler("DELETE", "/items/{id}", "items.item.delete"))
          .add(handler("POST", "/uploads", "uploads.post"))
          .add(handler("GET", "/downloads/{name}", "downloads.get"))
          .add(handler("GET", "/public/info", null))
          // MODSIDECAR-198: any valid token, when SIDECAR_WILDCARD_PERMISSION_TOKEN_ONLY is on
          .add(handler("GET", "/whoami", "*"))
          .add(handler("GET", "/items/{id}/loans", "items.loans.get")
            .put("permissionsDesired", new JsonArray().add("circulation.loans.*").add("items.loans.view")))
          .add(handler("POST", "/items/{id}/check", "items.check.post")
            .put("modulePermissions", new JsonArray().add("users.item.get").add("users.collection.get")
              .add("inventory.items.get")))))
        .add(new JsonObject().put("id", "_tenant").put("version", "2.0").put("interfaceType", "system")
          .put("handlers", new JsonArray().add(handler("POST", "/_/tenant", null)))));
  }

  static JsonObject handler(String method, String pathPattern, String permission) {
    return new JsonObject()
      .put("methods", new JsonArray().add(method))
      .put("pathPattern", pathPattern)
      .put("permissionsRequired", permission == null ? new JsonArray() : new JsonArray().add(permission));
  }

  /**
   * The mgr-applications bootstrap of the module: its own interfaces plus the modules it requires, with
   * their discovered locations. mod-source-record-storage is one of the DB-heavy modules operators move to a
   * dedicated deployment with a route override; mod-down is discovered where nothing listens. Two codex
   * modules provide the same {@code multiple} interface, each under its own path on the others' stub.
   */
  public static JsonObject bootstrap(String othersUrl, String downUrl, boolean systemUserRequired) {
    return new JsonObject()
      .put("module", new JsonObject().put("moduleId", NAME + "-" + VERSION)
        .put("systemUserRequired", systemUserRequired)
        .put("interfaces", descriptor().getJsonArray("provides")))
      .put("requiredModules", new JsonArray()
        .add(required("mod-users-19.0.0", othersUrl, "users",
          handler("GET", "/users/{id}", "users.item.get"), handler("GET", "/users", "users.collection.get"),
          handler("POST", "/users/import", "users.import"), handler("POST", "/users/{id}/notes", "users.notes.post"),
          handler("GET", "/users/{id}/desired", "users.desired.get").put("permissionsDesired",
            new JsonArray().add("users.item*"))))
        .add(required("mod-source-record-storage-5.9.0", othersUrl, "source-storage-records",
          handler("GET", "/source-storage/records/{id}", "srs.get"),
          handler("POST", "/source-storage/records", "srs.post")))
        .add(required("mod-down-1.0.0", downUrl, "down", handler("GET", "/down/{id}", "down.get")))
        .add(multiple("mod-codex-ekb-1.0.0", othersUrl + "/ekb"))
        .add(multiple("mod-codex-inventory-2.0.0", othersUrl + "/inventory")));
  }

  private static JsonObject multiple(String moduleId, String location) {
    var module = required(moduleId, location, "codex", handler("GET", "/codex-instances", "codex.get"));
    module.getJsonArray("interfaces").getJsonObject(0).put("interfaceType", "multiple");
    return module;
  }

  private static JsonObject required(String moduleId, String location, String interfaceId, JsonObject... handlers) {
    var endpoints = new JsonArray();
    for (var handler : handlers) {
      endpoints.add(handler);
    }
    return new JsonObject().put("moduleId", moduleId).put("location", location)
      .put("interfaces", new JsonArray().add(new JsonObject().put("id", interfaceId).put("version", "1.0")
        .put("endpoints", endpoints)));
  }

  public static Path writeBootstrap(String othersUrl, String downUrl, boolean systemUserRequired) {
    try {
      var file = Files.createTempFile("module-bootstrap", ".json");
      Files.writeString(file, bootstrap(othersUrl, downUrl, systemUserRequired).encodePrettily());
      // readable by a sidecar running as another user (image/smoke.sh: the image's non-root user)
      file.toFile().setReadable(true, false);
      file.toFile().deleteOnExit();
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
