package org.folio.sidecar.support;

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
          .add(handler("GET", "/public/info", null))))
        .add(new JsonObject().put("id", "_tenant").put("version", "2.0").put("interfaceType", "system")
          .put("handlers", new JsonArray().add(handler("POST", "/_/tenant", null)))));
  }

  private static JsonObject handler(String method, String pathPattern, String permission) {
    return new JsonObject()
      .put("methods", new JsonArray().add(method))
      .put("pathPattern", pathPattern)
      .put("permissionsRequired", permission == null ? new JsonArray() : new JsonArray().add(permission));
  }

  public static Path writeDescriptor() {
    try {
      var file = Files.createTempFile("module-descriptor", ".json");
      Files.writeString(file, descriptor().encodePrettily());
      file.toFile().deleteOnExit();
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
