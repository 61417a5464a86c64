package org.folio.sidecar.error;

import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Singleton;
import org.folio.sidecar.config.SidecarConfig;

/**
 * Writes a {@link SidecarError} in upstream's JSON error format: {@code type}, {@code code}, {@code message} and
 * {@code total_records}, nothing else. The reason goes to the access line; SIDECAR_ERROR_CAUSE_IN_BODY adds it
 * to the body as upstream's {@code parameters[{key: cause}]} for debugging.
 */
@Singleton
public class ErrorResponder {

  private final boolean causeInBody;

  ErrorResponder(SidecarConfig config) {
    this.causeInBody = config.errorCauseInBody();
  }

  public void respond(HttpServerResponse response, SidecarError error) {
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
      .end(body(error, causeInBody).encode());
  }

  static JsonObject body(SidecarError error, boolean withCause) {
    var item = new JsonObject()
      .put("type", error.type())
      .put("code", error.code())
      .put("message", error.getMessage());
    if (withCause && error.reason() != null) {
      item.put("parameters", new JsonArray().add(new JsonObject().put("key", "cause").put("value", error.reason())));
    }
    return new JsonObject().put("errors", new JsonArray().add(item)).put("total_records", 1);
  }
}
