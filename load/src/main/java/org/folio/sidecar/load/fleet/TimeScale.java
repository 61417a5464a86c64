package org.folio.sidecar.load.fleet;

import io.quarkus.runtime.configuration.DurationConverter;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.config.UsersConfig;
import org.folio.sidecar.testkit.ConfigMappings;

/**
 * One factor for every time constant of a run, so a compressed run keeps production's proportions: token lifespan
 * (FOLIO's 600 s), the users' refresh point (70 % of it, so it follows), the decision and desired-permission caches'
 * TTLs and offsets. A constant upstream hard-codes cannot be scaled; {@link #unscaled()} names them for the report.
 */
public record TimeScale(double factor) {

  /** FOLIO's access token lifespan. */
  static final Duration TOKEN_LIFESPAN = Duration.ofSeconds(600);

  /** The cache's defaults, read from the sidecar's own mapping, as the sidecar's variables name them. */
  private static final Map<String, Duration> PRODUCTION = productionConstants(
    ConfigMappings.load(AuthzCacheConfig.class, Map.of()), ConfigMappings.load(UsersConfig.class, Map.of()));
  public static final String DESIRED_TTL = "MOD_USERS_KEYCLOAK_PERMISSIONS_CACHE_EXPIRATION_SECONDS";
  private static final String LEGACY_OFFSET = "KC_AUTHORIZATION_CACHE_TTL_OFFSET";

  public TimeScale {
    if (!(factor > 0 && factor <= 1)) {
      throw new IllegalArgumentException("--time-scale must be in (0, 1], got " + factor);
    }
  }

  private static Map<String, Duration> productionConstants(AuthzCacheConfig defaults, UsersConfig users) {
    var constants = new LinkedHashMap<String, Duration>();
    constants.put("SIDECAR_AUTHZ_CACHE_ALLOW_TTL", defaults.allowTtl());
    constants.put("SIDECAR_AUTHZ_CACHE_REFRESH_AFTER", defaults.refreshAfter());
    constants.put("SIDECAR_AUTHZ_CACHE_DENY_TTL", defaults.denyTtl());
    constants.put("SIDECAR_AUTHZ_CACHE_MAX_STALENESS", defaults.maxStaleness());
    constants.put(LEGACY_OFFSET, Duration.ofMillis(defaults.legacyTtlOffset()));
    constants.put(DESIRED_TTL, users.permissionsCacheTtl());
    return constants;
  }

  public Duration scaled(Duration production) {
    return Duration.ofNanos(Math.round(production.toNanos() * factor));
  }

  /** What {@code run} stands for in production time. */
  public Duration production(Duration run) {
    return Duration.ofNanos(Math.round(run.toNanos() / factor));
  }

  public Duration tokenLifespan() {
    return scaled(TOKEN_LIFESPAN);
  }

  public Duration allowTtl() {
    return scaled(PRODUCTION.get("SIDECAR_AUTHZ_CACHE_ALLOW_TTL"));
  }

  public Duration desiredTtl() {
    return scaled(PRODUCTION.get(DESIRED_TTL));
  }

  /**
   * The variables both fleets start with, each constant scaled, in the unit its variable takes: legacy mode's
   * offset in plain milliseconds, the desired-permission TTL in (here fractional) seconds, the rest as durations.
   */
  public Map<String, String> sidecarEnvironment() {
    return environment(PRODUCTION);
  }

  /**
   * The same for another build, whose production defaults differ from this build's legacy mode: {@code defaults}
   * is a properties file beside its {@code --baseline-cmd}, {@code VARIABLE=duration} (e.g.
   * {@code KC_AUTHORIZATION_CACHE_TTL_OFFSET=5000ms} for upstream v4.0.3); a constant it does not name keeps this
   * build's default.
   */
  public Map<String, String> sidecarEnvironment(Path defaults) throws IOException {
    return environment(productionDefaults(defaults));
  }

  /** This build's production constants with those {@code defaults} names replaced. */
  public static Map<String, Duration> productionDefaults(Path defaults) throws IOException {
    var properties = new Properties();
    try (var in = Files.newBufferedReader(defaults)) {
      properties.load(in);
    }
    var constants = new LinkedHashMap<>(PRODUCTION);
    for (var variable : properties.stringPropertyNames()) {
      if (!constants.containsKey(variable)) {
        throw new IllegalArgumentException(defaults + ": " + variable + " is not a time constant of the run; known: "
          + constants.keySet());
      }
      constants.put(variable, new DurationConverter().convert(properties.getProperty(variable).trim()));
    }
    return constants;
  }

  private Map<String, String> environment(Map<String, Duration> production) {
    var env = new LinkedHashMap<String, String>();
    production.forEach((variable, value) -> {
      long millis = scaled(value).toMillis();
      env.put(variable, switch (variable) {
        case LEGACY_OFFSET -> String.valueOf(millis);
        case DESIRED_TTL -> BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString();
        default -> millis + "ms";
      });
    });
    return env;
  }

  /** Production value and scaled value of every constant, for the report. */
  public Map<String, Duration[]> table() {
    var table = new LinkedHashMap<String, Duration[]>();
    table.put("access token lifespan (realm setting)", new Duration[]{TOKEN_LIFESPAN, tokenLifespan()});
    PRODUCTION.forEach((variable, value) -> table.put("`" + variable + "`", new Duration[]{value, scaled(value)}));
    return table;
  }

  /** Time constants of upstream's code that have no variable, and so keep their production value in any run. */
  public static String unscaled() {
    return "legacy mode's service tokens are dropped 25 s before expiry (upstream v3.0.18 hard-codes it), and both "
      + "fleets keep Keycloak's own timeouts";
  }
}
