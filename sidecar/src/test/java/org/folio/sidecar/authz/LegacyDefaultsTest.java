package org.folio.sidecar.authz;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.config.WithDefault;
import java.nio.file.Files;
import java.nio.file.Path;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.junit.jupiter.api.Test;

/**
 * Legacy mode is the A/B baseline, so its defaults are upstream v3.0.18's, from its application.properties
 * ({@code KC_AUTHORIZATION_CACHE_MAX_SIZE:250}, {@code KC_AUTHORIZATION_CACHE_TTL_OFFSET:500}), not its README.
 */
class LegacyDefaultsTest {

  private static final long UPSTREAM_MAX_SIZE = 250;
  private static final long UPSTREAM_TTL_OFFSET_MILLIS = 500;

  @Test
  void legacyDefaultsAreUpstreams() throws Exception {
    var properties = Files.readString(Path.of("src/main/resources/application.properties"));

    assertThat(properties).contains("${KC_AUTHORIZATION_CACHE_MAX_SIZE:" + UPSTREAM_MAX_SIZE + "}")
      .contains("${KC_AUTHORIZATION_CACHE_TTL_OFFSET:" + UPSTREAM_TTL_OFFSET_MILLIS + "}");
    assertThat(defaultOf("legacyMaxSize")).isEqualTo(String.valueOf(UPSTREAM_MAX_SIZE));
    assertThat(defaultOf("legacyTtlOffset")).isEqualTo(String.valueOf(UPSTREAM_TTL_OFFSET_MILLIS));
  }

  private static String defaultOf(String method) throws NoSuchMethodException {
    return AuthzCacheConfig.class.getMethod(method).getAnnotation(WithDefault.class).value();
  }
}
