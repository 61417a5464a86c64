package org.folio.sidecar.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

/**
 * Trust for the sidecar's outgoing TLS, by upstream's variables (which upstream wires only in its {@code fips}
 * profile; here they work everywhere). Serving HTTPS uses SC_TLS_KEYSTORE_* (see application.properties).
 */
@ConfigMapping(prefix = "tls")
public interface TlsConfig {

  /** SC_CLIENT_TLS_TRUSTSTORE_*: CAs trusted for the module and egress targets. */
  Truststore forwarding();

  /** KC_CLIENT_TLS_TRUSTSTORE_*: CAs trusted for Keycloak. */
  Truststore keycloak();

  /**
   * MGR_CLIENT_TLS_TRUSTSTORE_*: CAs trusted for the mgr-* services and mod-users-keycloak; by default those of
   * SC_CLIENT_TLS_TRUSTSTORE_*, as upstream calls them with its egress client.
   */
  Truststore platform();

  /** GW_CLIENT_TLS_TRUSTSTORE_*: CAs trusted for the gateway of SIDECAR_FORWARD_UNKNOWN_REQUESTS. */
  Truststore gateway();

  /** WEB_CLIENT_TLS_VERIFY_HOSTNAME: check that certificates name the host called (on by default, unlike upstream). */
  @WithDefault("true")
  boolean verifyHostname();

  /** A truststore file: PKCS12, JKS, or PEM certificates (by type or {@code .pem}/{@code .crt} ending). */
  interface Truststore {

    Optional<String> path();

    Optional<String> password();

    @WithDefault("PKCS12")
    String type();
  }
}
