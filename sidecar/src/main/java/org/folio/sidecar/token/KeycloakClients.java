package org.folio.sidecar.token;

import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.util.concurrent.TimeUnit;
import org.folio.sidecar.config.KeycloakConfig;
import org.folio.sidecar.config.TlsConfig;
import org.folio.sidecar.config.TlsOptions;

/**
 * The one pooled HTTP client every Keycloak call goes through (keys, decisions, tokens); the managers have their
 * own. Its calls are sent by {@link KeycloakCalls}, which adds the whole-call deadline.
 */
@Singleton
public class KeycloakClients {

  @Produces
  @Singleton
  @Named("keycloak")
  WebClient keycloakWebClient(Vertx vertx, KeycloakConfig config, TlsConfig tls) {
    var options = new WebClientOptions()
      .setConnectTimeout((int) config.connectTimeout().toMillis())
      .setKeepAlive(true)
      // TCP keep-alive, as upstream's MODSIDECAR-199: a peer gone without a word shows on idle pooled connections
      .setTcpKeepAlive(true)
      .setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
      .setReadIdleTimeout((int) Math.min(Integer.MAX_VALUE, config.readIdleTimeout().toMillis()))
      .setMaxPoolSize(config.maxPoolSize())
      .setUserAgentEnabled(false)
      .setFollowRedirects(false);
    return WebClient.create(vertx, TlsOptions.trust(options, tls.keycloak(), tls.verifyHostname(),
      "KC_CLIENT_TLS_TRUSTSTORE"));
  }
}
