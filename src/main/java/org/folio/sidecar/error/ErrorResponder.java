package org.folio.sidecar.error;

import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** Writes a {@link SidecarError} in upstream's JSON error format. */
public final class ErrorResponder {

  private ErrorResponder() {
  }

  public static void respond(HttpServerResponse response, SidecarError error) {
    if (response.ended() || response.closed()) {
      return;
    }
    if (response.headWritten()) {
      // Too late for a clean error: the status line is out. Cutting the connection tells the caller the
      // body is incomplete instead of letting a truncated body look whole.
      response.reset();
      return;
    }
    response.setStatusCode(error.status())
      .putHeader("content-type", "application/json")
      .end(body(error).encode());
  }

  public static JsonObject body(SidecarError error) {
    var item = new JsonObject()
      .put("type", error.type())
      .put("code", error.code())
      .put("message", error.getMessage());
    if (error.reason() != null) {
      item.put("parameters", new JsonArray().add(new JsonObject().put("key", "cause").put("value", error.reason())));
    }
    return new JsonObject().put("errors", new JsonArray().add(item)).put("total_records", 1);
  }
}
