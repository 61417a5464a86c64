package org.folio.sidecar.admin;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Singleton;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import org.jboss.logmanager.LogContext;
import org.folio.sidecar.error.SidecarError;

/**
 * Log levels read and changed at runtime, as Envoy's {@code /logging?level=}: for the root, the access line
 * ({@code transaction}), the sidecar's own categories ({@code org.folio.sidecar} and below) and any category a
 * logger already exists for. New categories outside the sidecar's are refused, so the set of levels stays bounded.
 * A change lasts until the process stops; Quarkus drops lines below its build-time minimum (DEBUG) whatever the
 * level.
 */
@Singleton
public class LogLevels {

  static final String ROOT = "ROOT";
  private static final String OWN = "org.folio.sidecar";
  private static final Pattern CATEGORY = Pattern.compile("[A-Za-z0-9_.$-]{1,200}");
  private static final Map<String, Level> LEVELS = Map.of("OFF", Level.OFF,
    "FATAL", org.jboss.logmanager.Level.FATAL, "ERROR", org.jboss.logmanager.Level.ERROR,
    "WARN", org.jboss.logmanager.Level.WARN, "INFO", org.jboss.logmanager.Level.INFO,
    "DEBUG", org.jboss.logmanager.Level.DEBUG, "TRACE", org.jboss.logmanager.Level.TRACE, "ALL", Level.ALL);

  /** The root's level and every category whose level is set. */
  AdminAnswer levels(HttpServerRequest request) {
    var levels = new TreeMap<String, String>();
    var manager = LogManager.getLogManager();
    for (var name : Collections.list(manager.getLoggerNames())) {
      var logger = manager.getLogger(name);
      if (logger != null && logger.getLevel() != null) {
        levels.put(name.isEmpty() ? ROOT : name, logger.getLevel().getName());
      }
    }
    return AdminAnswer.of(new JsonObject().put("levels", new JsonObject(Map.copyOf(levels))));
  }

  /** {@code ?category=org.folio.sidecar.authz&level=DEBUG}; {@code category} left out is the root. */
  AdminAnswer change(HttpServerRequest request) {
    var category = request.getParam("category", ROOT);
    var levelName = request.getParam("level");
    var level = levelName == null ? null : LEVELS.get(levelName.toUpperCase(Locale.ROOT));
    if (level == null) {
      throw SidecarError.badRequest("level must be one of " + new TreeMap<>(LEVELS).keySet());
    }
    if (!CATEGORY.matcher(category).matches()) {
      throw SidecarError.badRequest("Invalid category");
    }
    var name = ROOT.equals(category) ? "" : category;
    // asking the log manager for a logger would create it: only one that exists already counts
    if (!name.isEmpty() && !isOwn(name) && LogContext.getLogContext().getLoggerIfExists(name) == null) {
      throw SidecarError.badRequest("Unknown category: only " + OWN + ", transaction, ROOT and existing categories");
    }
    var logger = Logger.getLogger(name);
    var before = logger.getLevel();
    logger.setLevel(level);
    var body = new JsonObject().put("category", category).put("level", level.getName())
      .put("previous", before == null ? null : before.getName());
    return new AdminAnswer(body, "category=" + category + " level=" + level.getName() + " previous="
      + (before == null ? "inherited" : before.getName()));
  }

  private static boolean isOwn(String name) {
    return name.equals(OWN) || name.startsWith(OWN + ".") || name.equals("transaction");
  }
}
