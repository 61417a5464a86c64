package org.folio.sidecar.admin;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.Config;

/**
 * The effective configuration, as Envoy's {@code /config_dump}: every property of the sidecar's own namespaces and
 * of the Quarkus settings it relies on, with its value and the source it came from (an environment variable,
 * application.properties, a default), secrets redacted.
 */
@Singleton
public class ConfigDump {

  static final String REDACTED = "<redacted>";
  private static final List<String> PREFIXES = List.of("sidecar.", "kc.", "module.", "egress.", "token.", "tenant.",
    "events.", "users.", "secret-store.", "tls.", "retry.", "health-check.", "edge.", "kafka.", "quarkus.http.",
    "quarkus.management.", "quarkus.log.", "quarkus.shutdown.", "quarkus.application.");
  // a name that holds a secret: its last part is a password, token, key or credential; or a SASL JAAS config, or
  // the ephemeral store's content
  private static final Pattern SECRET = Pattern.compile(
    "(password|secret|token|credentials?|access-key|secret-key|api-key)$|jaas|ephemeral\\.content",
    Pattern.CASE_INSENSITIVE);
  // user:password@ in a URL
  private static final Pattern USER_INFO = Pattern.compile("(?<=://)[^/@\\s]+@");

  private final Config config;

  ConfigDump(Config config) {
    this.config = config;
  }

  AdminAnswer dump(HttpServerRequest request) {
    var names = new TreeSet<String>();
    for (var name : config.getPropertyNames()) {
      var normalized = normalized(name);
      if (PREFIXES.stream().anyMatch(normalized::startsWith) && !name.startsWith("%")) {
        names.add(name);
      }
    }
    var properties = new JsonObject();
    for (var name : names) {
      var entry = new JsonObject();
      try {
        var value = config.getConfigValue(name);
        entry.put("value", value.getValue() == null ? null : shown(name, value.getValue()))
          .put("source", value.getSourceName());
      } catch (RuntimeException e) {
        // an expression naming a missing property: say so instead of failing the whole dump
        entry.put("value", null).put("source", "unresolvable: " + e.getClass().getSimpleName());
      }
      properties.put(name, entry);
    }
    return AdminAnswer.of(new JsonObject().put("count", properties.size()).put("properties", properties));
  }

  /** {@code KAFKA_SASL_JAAS_CONFIG} reads as {@code kafka.sasl.jaas.config}, so one list of prefixes serves both. */
  private static String normalized(String name) {
    return name.startsWith("KAFKA_") ? name.toLowerCase(Locale.ROOT).replace('_', '.') : name;
  }

  static String shown(String name, String value) {
    if (value.isEmpty()) {
      return value;
    }
    if (SECRET.matcher(normalized(name)).find()) {
      return REDACTED;
    }
    return USER_INFO.matcher(value).replaceAll("<redacted>@");
  }
}
