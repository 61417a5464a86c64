package org.folio.sidecar.admin;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;

/**
 * The effective configuration, as Envoy's {@code /config_dump}: every property of the sidecar's own namespaces and
 * of the Quarkus settings it relies on, with its value and the source it came from (an environment variable,
 * application.properties, a default). Redacted by default: a value shows only under a name known to hold none
 * of a secret ({@link #knownSafe}), and a URL never shows its user info.
 */
@Singleton
public class ConfigDump {

  static final String REDACTED = "<redacted>";
  private static final List<String> PREFIXES = List.of("sidecar.", "kc.", "module.", "egress.", "token.", "tenant.",
    "events.", "users.", "secret-store.", "tls.", "retry.", "health-check.", "edge.", "kafka.", "quarkus.http.",
    "quarkus.management.", "quarkus.log.", "quarkus.shutdown.", "quarkus.application.");
  // Redaction by default: a value shows only when the name's last word says what it is and that is never a secret
  // (a host, a limit, a duration, a switch, a file's path...) and the word before it does not make it a secret's
  // (secret-id, role-id, credentials-endpoint).
  // Names no one listed, such as Kafka's next credential property, stay hidden.
  private static final Set<String> SAFE_LAST_WORDS = Set.of("host", "hosts", "port", "url", "uri", "address",
    "addresses", "endpoint", "timeout", "interval", "delay", "window", "duration", "ttl", "age", "wait", "size",
    "capacity", "attempts", "factor", "fraction", "share", "offset", "limit", "max", "min", "streams", "connections",
    "enabled", "enable", "type", "provider", "protocol", "protocols", "mechanism", "path", "location", "file", "level",
    "format", "env", "name", "region", "version", "client", "id", "handlers", "overrides", "algorithm", "suites",
    "strategy", "reset", "acks", "ms", "bytes", "records");
  private static final Set<String> SECRET_WORDS = Set.of("secret", "secrets", "password", "passphrase", "passwd",
    "pwd", "token", "credential", "credentials", "jaas", "private", "role", "assertion", "info", "content",
    "userinfo", "auth", "sig", "signature");
  // the ephemeral secret store's entries are secrets whatever their names
  private static final String EPHEMERAL_STORE = "secret-store.ephemeral.";
  private static final Pattern WORD_SEPARATORS = Pattern.compile("[._\\-\"]+");
  // user:password@ in a URL
  private static final Pattern USER_INFO = Pattern.compile("(?<=://)[^/@\\s]+@");

  // the name in each ${NAME} or ${NAME:default} of an expression, in order
  private static final Pattern EXPRESSION_NAME = Pattern.compile("\\$\\{([^:}$]+)");
  // an expression's variable may itself be a property defined by one: followed this far
  private static final int MAX_EXPRESSION_DEPTH = 3;

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
          .put("source", source(value, 0));
      } catch (RuntimeException e) {
        // an expression naming a missing property: say so instead of failing the whole dump
        entry.put("value", null).put("source", "unresolvable: " + e.getClass().getSimpleName());
      }
      properties.put(name, entry);
    }
    return AdminAnswer.of(new JsonObject().put("count", properties.size()).put("properties", properties));
  }

  /**
   * Where a value came from: for a property whose application.properties value is an expression over upstream's
   * variables ({@code sidecar.request-timeout=${REQUEST_TIMEOUT:60000}}), the first of them that is set, with its
   * own source (an operator reads "EnvConfigSource (REQUEST_TIMEOUT)", not application.properties); its default
   * applying, the file that holds it.
   */
  private String source(ConfigValue value, int depth) {
    var raw = value.getRawValue();
    if (raw != null && depth < MAX_EXPRESSION_DEPTH) {
      var names = EXPRESSION_NAME.matcher(raw);
      while (names.find()) {
        var named = config.getConfigValue(names.group(1));
        if (named.getValue() != null) {
          return source(named, depth + 1) + " (" + names.group(1) + ")";
        }
      }
    }
    return value.getSourceName();
  }

  /** {@code KAFKA_SASL_JAAS_CONFIG} reads as {@code kafka.sasl.jaas.config}, so one list of prefixes serves both. */
  private static String normalized(String name) {
    return name.startsWith("KAFKA_") ? name.toLowerCase(Locale.ROOT).replace('_', '.') : name;
  }

  /** A switch is never a secret; anything else only under a name {@link #SAFE_LAST_WORDS} vouch for. */
  private static boolean knownSafe(String name, String value) {
    if ("true".equalsIgnoreCase(value) || "false".equalsIgnoreCase(value)) {
      return true;
    }
    if (name.startsWith(EPHEMERAL_STORE)) {
      return false;
    }
    // the namespace's own words (secret-store., token.) say nothing about the value
    var prefix = PREFIXES.stream().filter(name::startsWith).findFirst().orElse("");
    var words = WORD_SEPARATORS.splitAsStream(name.substring(prefix.length()).toLowerCase(Locale.ROOT))
      .filter(word -> !word.isEmpty()).toList();
    var last = words.size() - 1;
    return last >= 0 && SAFE_LAST_WORDS.contains(words.get(last))
      && (last == 0 || !SECRET_WORDS.contains(words.get(last - 1)));
  }

  static String shown(String name, String value) {
    if (value.isEmpty()) {
      return value;
    }
    if (!knownSafe(normalized(name), value)) {
      return REDACTED;
    }
    return USER_INFO.matcher(value).replaceAll("<redacted>@");
  }
}
