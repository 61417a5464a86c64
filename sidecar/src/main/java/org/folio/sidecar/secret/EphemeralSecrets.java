package org.folio.sidecar.secret;

import io.vertx.core.Future;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.folio.sidecar.error.SidecarError;

/**
 * Upstream's EPHEMERAL store: secrets are configuration properties {@code secret-store.ephemeral.content.<key>}
 * (environment, mounted Secret files, system properties).
 */
final class EphemeralSecrets implements SecretStore {

  private static final String PREFIX = "secret-store.ephemeral.content.";

  private final Map<String, String> content;
  private final Config config;

  EphemeralSecrets(Map<String, String> content, Config config) {
    this.content = content;
    this.config = config;
  }

  @Override
  public Future<String> secret(String key) {
    var value = content.get(key);
    if (value == null) {
      // an environment variable of a key no property names is found only by asking for the key itself
      value = config.getOptionalValue(PREFIX + key, String.class).orElse(null);
    }
    return value != null ? Future.succeededFuture(value) : Future.failedFuture(SidecarError.secretNotFound(key));
  }
}
