package org.folio.sidecar.config;

import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.jspecify.annotations.Nullable;

/**
 * folio-helm-v2 sets QUARKUS_HTTP_LIMITS_MAX_BODY_SIZE (10240K), which Quarkus would enforce itself with a bare
 * 413 before the sidecar sees the request. The sidecar enforces that same limit (SIDECAR_MAX_BODY_SIZE defaults to
 * it) with upstream's JSON error body, so Quarkus' check is lifted out of the way, above the environment's ordinal.
 */
public class BodyLimitConfigSource implements ConfigSource {

  private static final String PROPERTY = "quarkus.http.limits.max-body-size";
  private static final Map<String, String> VALUES = Map.of(PROPERTY, "1000G");

  @Override
  public Set<String> getPropertyNames() {
    return VALUES.keySet();
  }

  @Override
  public @Nullable String getValue(String propertyName) {
    return VALUES.get(propertyName);
  }

  @Override
  public String getName() {
    return "sidecar-body-limit";
  }

  @Override
  public int getOrdinal() {
    // the environment's ordinal is 300
    return 1000;
  }
}
