package org.folio.sidecar.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.folio.sidecar.testkit.ConfigMappings;
import org.junit.jupiter.api.Test;

/** Upstream variables with no meaning here are named, with the reason, in one WARN; honoured ones never are. */
class UpstreamVariablesTest {

  @Test
  void ignoredUpstreamVariablesAreNamedWithTheirReasonInOneLine() {
    var line = UpstreamVariables.warning(Map.of("TOKEN_CACHE_RETRIEVAL_TIMEOUT", "30", "SC_CLIENT_TLS_ENABLED", "true",
      "KC_AUTHORIZATION_CACHE_MAX_SIZE", "250", "WEB_CLIENT_EGRESS_POOL_MAX_SIZE", "100",
      "KC_URI_VALIDATION_ENABLED", "false", "WEB_CLIENT_TLS_VERIFY_HOSTNAME", "false", "KC_URL", "http://kc"),
      AuthzCacheConfig.Mode.OPTIMIZED).orElseThrow();

    assertThat(line).startsWith("Upstream variables without meaning here; ignored: ")
      .contains("TOKEN_CACHE_RETRIEVAL_TIMEOUT, because token requests never block a thread")
      .contains("SC_CLIENT_TLS_ENABLED, because TLS is used where")
      .contains("KC_AUTHORIZATION_CACHE_MAX_SIZE, because the decision cache is sized by SIDECAR_AUTHZ_CACHE_MAX_SIZE")
      .contains("WEB_CLIENT_EGRESS_POOL_MAX_SIZE, because")
      .doesNotContain("KC_URI_VALIDATION_ENABLED").doesNotContain("WEB_CLIENT_TLS_VERIFY_HOSTNAME")
      .doesNotContain("KC_URL");
  }

  @Test
  void legacyModeReadsUpstreamsCacheVariablesAndNothingHonouredIsNamed() {
    assertThat(UpstreamVariables.warning(Map.of("KC_AUTHORIZATION_CACHE_MAX_SIZE", "250",
      "KC_AUTHORIZATION_CACHE_TTL_OFFSET", "500", "KC_JWKS_REFRESH_INTERVAL", "60"), AuthzCacheConfig.Mode.LEGACY))
      .isEmpty();
  }

  @Test
  void upstreamUnitsAreReadAsUpstreamReadsThem() {
    // KC_JWKS_REFRESH_INTERVAL is minutes upstream; QUARKUS_HTTP_LIMITS_MAX_BODY_SIZE a Quarkus memory size
    var keycloak = ConfigMappings.load(KeycloakConfig.class, Map.of("kc.jwks-refresh-interval", "60"));
    var sidecar = ConfigMappings.load(SidecarConfig.class, Map.of("sidecar.url", "http://localhost:8082",
      "sidecar.max-body-size", "10240K"));

    assertThat(keycloak.jwksRefreshInterval()).isEqualTo(Duration.ofMinutes(60));
    assertThat(ConfigMappings.load(KeycloakConfig.class, Map.of("kc.jwks-refresh-interval", "90s"))
      .jwksRefreshInterval()).isEqualTo(Duration.ofSeconds(90));
    assertThat(sidecar.maxBodySize()).isEqualTo(10240L * 1024);
  }
}
