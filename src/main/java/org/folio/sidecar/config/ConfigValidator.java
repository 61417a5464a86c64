package org.folio.sidecar.config;

import io.quarkus.runtime.Startup;
import io.quarkus.runtime.configuration.ConfigurationException;
import jakarta.annotation.PostConstruct;
import jakarta.inject.Singleton;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Checks the configuration once at start-up so that a bad value stops the sidecar with a message naming the
 * environment variable, instead of surfacing as odd failures at request time.
 */
// before every other start-up observer: those call Keycloak and the managers, and a bad URL would otherwise
// surface after their retries as a stack trace that names no variable
@Startup(Integer.MIN_VALUE)
@Singleton
public class ConfigValidator {

  private final ModuleConfig module;
  private final KeycloakConfig keycloak;
  private final SidecarConfig sidecar;

  ConfigValidator(ModuleConfig module, KeycloakConfig keycloak, SidecarConfig sidecar) {
    this.module = module;
    this.keycloak = keycloak;
    this.sidecar = sidecar;
  }

  @PostConstruct
  void validate() {
    var problems = new ArrayList<String>();
    requireHttpUrl("MODULE_URL", module.url(), problems);
    requireHttpUrl("KC_URL", keycloak.url(), problems);
    requireHttpUrl("SIDECAR_URL", sidecar.url(), problems);
    keycloak.jwksBaseUrl().ifPresent(url -> requireHttpUrl("KC_JWKS_BASE_URL", url, problems));
    if (module.name().isBlank()) {
      problems.add("MODULE_NAME must not be blank");
    }
    if (!module.healthPath().startsWith("/")) {
      problems.add("MODULE_HEALTH_PATH must start with '/', got '" + module.healthPath() + "'");
    }
    if (sidecar.requestTimeout() <= 0) {
      problems.add("REQUEST_TIMEOUT must be a positive number of milliseconds, got " + sidecar.requestTimeout());
    }
    if (sidecar.maxBodySize() <= 0) {
      problems.add("SIDECAR_MAX_BODY_SIZE must be a positive number of bytes, got " + sidecar.maxBodySize());
    }
    requirePositive("KC_REQUEST_TIMEOUT", keycloak.requestTimeout().toMillis(), problems);
    requirePositive("KC_CONNECT_TIMEOUT", keycloak.connectTimeout().toMillis(), problems);
    if (!problems.isEmpty()) {
      // Quarkus prints this exception's message alone, without a stack trace, and exits
      throw new ConfigurationException("Invalid configuration: " + String.join("; ", problems));
    }
  }

  static void requireHttpUrl(String variable, String value, List<String> problems) {
    parseHttpUrl(value).ifPresentOrElse(u -> { },
      () -> problems.add(variable + " must be an absolute http(s) URL, got '" + value + "'"));
  }

  static void requirePositive(String variable, long value, List<String> problems) {
    if (value <= 0) {
      problems.add(variable + " must be positive");
    }
  }

  public static Optional<URI> parseHttpUrl(String value) {
    try {
      var uri = URI.create(value);
      var scheme = uri.getScheme();
      if (uri.getHost() == null || !("http".equals(scheme) || "https".equals(scheme))) {
        return Optional.empty();
      }
      return Optional.of(uri);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** A configured base URL without its trailing slash, so paths can be appended. */
  public static String withoutTrailingSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }
}
