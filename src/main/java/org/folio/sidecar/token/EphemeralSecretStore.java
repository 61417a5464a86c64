package org.folio.sidecar.token;

import io.quarkus.runtime.Startup;
import io.quarkus.runtime.configuration.ConfigurationException;
import jakarta.annotation.PostConstruct;
import jakarta.inject.Singleton;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;

/**
 * Upstream's EPHEMERAL secret store: secrets are configuration properties
 * {@code secret-store.ephemeral.content.<key>} (environment, mounted Secret files, system properties).
 * SECRET_STORE_TYPE values other than EPHEMERAL are refused at start-up rather than failing per request.
 */
@Startup
@Singleton
public class EphemeralSecretStore implements SecretStore {

  private static final String PREFIX = "secret-store.ephemeral.content.";

  private final Config config;

  EphemeralSecretStore(Config config) {
    this.config = config;
  }

  @PostConstruct
  void checkType() {
    var type = config.getOptionalValue("secret.store.type", String.class)
      .or(() -> Optional.ofNullable(System.getenv("SECRET_STORE_TYPE"))).orElse("EPHEMERAL");
    if (!"EPHEMERAL".equalsIgnoreCase(type)) {
      throw new ConfigurationException("SECRET_STORE_TYPE=" + type + " is not supported yet; use EPHEMERAL");
    }
  }

  @Override
  public Optional<String> secret(String key) {
    return config.getOptionalValue(PREFIX + key, String.class);
  }
}
