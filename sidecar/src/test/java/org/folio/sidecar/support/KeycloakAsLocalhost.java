package org.folio.sidecar.support;

import java.util.Map;

/**
 * The platform's configuration with KC_URL naming Keycloak as {@code localhost} while its tokens say
 * {@code 127.0.0.1}: every real token's issuer differs from KC_URL in origin, as in a cluster where tokens carry
 * Keycloak's public address. {@code @ResourceArg}s (e.g. {@code kc.uri-validation-enabled}) still apply.
 */
public class KeycloakAsLocalhost extends SidecarTestResource {

  @Override
  public Map<String, String> start() {
    var config = super.start();
    config.put("kc.url", config.get("kc.url").replace("127.0.0.1", "localhost"));
    return config;
  }
}
