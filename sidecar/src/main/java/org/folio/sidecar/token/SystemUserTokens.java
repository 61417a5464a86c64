package org.folio.sidecar.token;

import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Singleton;
import org.folio.sidecar.config.KeycloakConfig;
import org.folio.sidecar.config.ModuleConfig;
import org.folio.sidecar.config.TokenConfig;
import org.folio.sidecar.secret.SecretStore;

/**
 * The module's system user's token per tenant, for egress calls the module makes without a user token when
 * its bootstrap says {@code systemUserRequired}: a password grant as user MODULE_NAME through the tenant's
 * login client, secrets under upstream's keys {@code <env>_<tenant>_<tenant>-login-application} and
 * {@code <env>_<tenant>_<MODULE_NAME>}. Shared and renewed ahead like service tokens.
 */
@Singleton
public class SystemUserTokens {

  private final TokenConfig config;
  private final SecretStore secrets;
  private final TokenEndpoint endpoint;
  private final String username;
  private final String loginClientSuffix;
  private final SharedTokens tokens;

  SystemUserTokens(TokenEndpoint endpoint, TokenConfig config, KeycloakConfig keycloak, ModuleConfig module,
    SecretStore secrets, MeterRegistry registry, Ticker ticker) {
    this.endpoint = endpoint;
    this.config = config;
    this.secrets = secrets;
    this.username = module.name();
    this.loginClientSuffix = keycloak.loginClientSuffix();
    this.tokens = new SharedTokens(this::obtain, new SharedTokens.Policy(config.maxCapacity(),
      config.refreshFraction(), false), registry, "sidecar.system-user-tokens", ticker);
  }

  public Future<String> token(String tenant) {
    return tokens.token(tenant);
  }

  /** Drops every tenant's token: the module no longer requires a system user. */
  public void evictAll() {
    tokens.evictAll();
  }

  private Future<JsonObject> obtain(String tenant) {
    var clientId = tenant + loginClientSuffix;
    var clientKey = key(tenant, clientId);
    var passwordKey = key(tenant, username);
    return Future.all(secrets.secret(clientKey), secrets.secret(passwordKey)).compose(both -> {
      var form = MultiMap.caseInsensitiveMultiMap().add("grant_type", "password").add("client_id", clientId)
        .add("client_secret", both.<String>resultAt(0)).add("username", username)
        .add("password", both.<String>resultAt(1));
      return endpoint.request(tenant, form, "system user token");
    }).onFailure(error -> secrets.forgetWhenRefused(error, clientKey, passwordKey));
  }

  private String key(String tenant, String name) {
    return config.secureStoreEnv() + "_" + tenant + "_" + name;
  }
}
