package org.folio.sidecar.token;

import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import org.folio.sidecar.config.KeycloakConfig;
import org.folio.sidecar.config.TlsConfig;
import org.folio.sidecar.config.TlsOptions;

/** The one pooled HTTP client every Keycloak call goes through (keys, decisions, tokens); the managers have their own. */
@Singleton
public class KeycloakClients {

  @Produces
  @Singleton
  @Named("keycloak")
  WebClient keycloakWebClient(Vertx vertx, KeycloakConfig config, TlsConfig tls) {
    var options = new WebClientOptions()
      .setConnectTimeout((int) config.connectTimeout().toMillis())
      .setKeepAlive(true)
      .setMaxPoolSize(config.maxPoolSize())
      .setUserAgentEnabled(false)
      .setFollowRedirects(false);
    return WebClient.create(vertx, TlsOptions.trust(options, tls.keycloak(), tls.verifyHostname(),
      "KC_CLIENT_TLS_TRUSTSTORE"));
  }
}
