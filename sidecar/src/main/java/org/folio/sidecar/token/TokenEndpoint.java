package org.folio.sidecar.token;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import org.folio.sidecar.config.ConfigValidator;
import org.folio.sidecar.config.KeycloakConfig;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.tracing.Tracing;

/** A realm's token endpoint, for the tokens the sidecar obtains itself; answers mapped to the caller's error. */
@Singleton
public class TokenEndpoint {

  private final WebClient client;
  private final KeycloakCalls calls;
  private final String baseUrl;

  TokenEndpoint(@Named("keycloak") WebClient client, KeycloakCalls calls, KeycloakConfig keycloak) {
    this.client = client;
    this.calls = calls;
    this.baseUrl = ConfigValidator.withoutTrailingSlash(keycloak.url());
  }

  /** Posts {@code form} to the realm's token endpoint; {@code what} names the token in errors. */
  public Future<JsonObject> request(String realm, MultiMap form, String what) {
    long started = System.nanoTime();
    return calls.send(realm, null, client.postAbs(baseUrl + "/realms/" + realm + "/protocol/openid-connect/token")
      .traceOperation(Tracing.OPERATION_TOKEN),
      request -> request.sendForm(form))
      .transform(result -> {
        KeycloakCallLog.outcome(what, realm, result, started);
        if (result.failed()) {
          return Future.failedFuture(SidecarError.keycloakUnavailable("cannot obtain a " + what + ": "
            + calls.describe(result.cause())));
        }
        var response = result.result();
        if (response.statusCode() != 200) {
          return Future.failedFuture(response.statusCode() >= 500
            ? SidecarError.keycloakUnavailable("Keycloak answered " + response.statusCode() + " for a " + what)
            : SidecarError.unauthorized("Keycloak refused the " + what + " request for " + realm));
        }
        return Future.succeededFuture(response.bodyAsJsonObject());
      });
  }
}
