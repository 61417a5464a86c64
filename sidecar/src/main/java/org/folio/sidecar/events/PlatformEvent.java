package org.folio.sidecar.events;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import org.jspecify.annotations.Nullable;

/** The platform events the sidecar acts on, parsed from their topics' JSON payloads. */
public sealed interface PlatformEvent {

  /** A module was (re)deployed: {@code {"moduleId"}} on {@code <ENV>.discovery}. */
  record Discovery(String moduleId) implements PlatformEvent {
  }

  /** A tenant gained or lost a module: {@code <ENV>.entitlement}. */
  record Entitlement(String moduleId, String tenantName, String type) implements PlatformEvent {

    public boolean revokes() {
      return "REVOKE".equals(type);
    }

    /** The tenant moved to another version of the module's application. */
    public boolean upgrades() {
      return "UPGRADE".equals(type);
    }
  }

  /**
   * A session ended ({@code LOGOUT}) or all of a user's ({@code LOGOUT_ALL}): {@code <ENV>.<tenant>.mod-login-keycloak.logout}.
   * {@code atEpochMillis} is the record's timestamp: mod-login-keycloak sends the event before it asks Keycloak to
   * end the sessions, so every token of an ended session was issued before it (within the clocks' skew).
   */
  record Logout(String tenant, String userId, @Nullable String sessionId, String type, long atEpochMillis)
    implements
      PlatformEvent {

    public boolean allSessions() {
      return "LOGOUT_ALL".equals(type);
    }
  }

  /**
   * Parses a record of {@code topic} written at {@code timestampMillis}; throws IllegalArgumentException for
   * anything malformed.
   */
  static PlatformEvent parse(String env, String topic, String payload, long timestampMillis) {
    JsonObject json;
    try {
      json = new JsonObject(payload == null ? "" : payload);
    } catch (DecodeException | ClassCastException e) {
      throw new IllegalArgumentException("payload is not a JSON object");
    }
    if (topic.equals(env + ".discovery")) {
      return new Discovery(required(json, "moduleId"));
    }
    if (topic.equals(env + ".entitlement")) {
      var type = required(json, "type");
      if (!type.equals("ENTITLE") && !type.equals("UPGRADE") && !type.equals("REVOKE")) {
        throw new IllegalArgumentException("unknown entitlement type " + type);
      }
      return new Entitlement(required(json, "moduleId"), required(json, "tenantName"), type);
    }
    var suffix = ".mod-login-keycloak.logout";
    if (topic.startsWith(env + ".") && topic.endsWith(suffix)) {
      var tenant = topic.substring(env.length() + 1, topic.length() - suffix.length());
      var type = required(json, "type");
      if (type.equals("LOGOUT")) {
        return new Logout(tenant, json.getString("userId"), required(json, "sessionId"), type, timestampMillis);
      }
      if (type.equals("LOGOUT_ALL")) {
        return new Logout(tenant, required(json, "userId"), null, type, timestampMillis);
      }
      throw new IllegalArgumentException("unknown logout type " + type);
    }
    throw new IllegalArgumentException("not a topic the sidecar handles");
  }

  private static String required(JsonObject json, String field) {
    var value = json.getValue(field);
    if (!(value instanceof String text) || text.isBlank()) {
      throw new IllegalArgumentException("field " + field + " is missing");
    }
    return text;
  }
}
