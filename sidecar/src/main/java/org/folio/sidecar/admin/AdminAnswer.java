package org.folio.sidecar.admin;

import io.vertx.core.json.JsonObject;
import org.jspecify.annotations.Nullable;

/**
 * An admin endpoint's answer (always 200; refusals are {@code SidecarError}s) and, for the audit line, what the
 * call did in a few words ({@code invalidated=3}), or null.
 */
record AdminAnswer(JsonObject body, @Nullable String detail) {

  static AdminAnswer of(JsonObject body) {
    return new AdminAnswer(body, null);
  }
}
