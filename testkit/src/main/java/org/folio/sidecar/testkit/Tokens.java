package org.folio.sidecar.testkit;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.Key;
import java.util.Base64;
import java.util.Map;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.lang.JoseException;

/** Tokens for the tests: real ones from Keycloak, and ones signed here to play forgeries and expired tokens. */
public final class Tokens {

  private final KeycloakAdmin keycloak;

  public Tokens(KeycloakAdmin keycloak) {
    this.keycloak = keycloak;
  }

  /** A user's login: the token response with access_token, refresh_token and session_state. */
  public JsonObject login(TestTenant tenant, TestTenant.User user) {
    return keycloak.token(tenant.name(), Map.of("grant_type", "password", "client_id", tenant.loginClient(),
      "client_secret", TestTenant.LOGIN_SECRET, "username", user.username(), "password", TestTenant.PASSWORD));
  }

  /** Keycloak's refresh of a login: same session and user, new exp; the refresh token is single-use. */
  public JsonObject refresh(TestTenant tenant, JsonObject login) {
    return keycloak.token(tenant.name(), Map.of("grant_type", "refresh_token", "client_id", tenant.loginClient(),
      "client_secret", TestTenant.LOGIN_SECRET, "refresh_token", login.getString("refresh_token")));
  }

  public void logout(TestTenant tenant, JsonObject login) {
    int status = keycloak.postForm("/realms/" + tenant.name() + "/protocol/openid-connect/logout", Map.of(
      "client_id", tenant.loginClient(), "client_secret", TestTenant.LOGIN_SECRET,
      "refresh_token", login.getString("refresh_token")));
    if (status != 204) {
      throw new IllegalStateException("logout answered " + status);
    }
  }

  /** The tenant's service token (client_credentials of the module-access client). */
  public String service(TestTenant tenant) {
    return keycloak.token(tenant.name(), Map.of("grant_type", "client_credentials",
      "client_id", FolioRealms.SERVICE_CLIENT, "client_secret", TestTenant.SERVICE_SECRET)).getString("access_token");
  }

  public static JsonObject claims(String token) {
    var payload = token.split("\\.")[1];
    return new JsonObject(new String(Base64.getUrlDecoder().decode(payload), StandardCharsets.UTF_8));
  }

  /** Signs {@code claims} with {@code key}, naming {@code keyId} and {@code algorithm} in the header. */
  public static String sign(JsonObject claims, Key key, String keyId, String algorithm) {
    var jws = new JsonWebSignature();
    jws.setPayload(claims.encode());
    jws.setKey(key);
    jws.setKeyIdHeaderValue(keyId);
    jws.setAlgorithmHeaderValue(algorithm);
    jws.setDoKeyValidation(false);
    try {
      return jws.getCompactSerialization();
    } catch (JoseException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Replaces the payload of a real token and keeps its signature: what a tampering caller would send. */
  public static String withPayload(String token, JsonObject claims) {
    var parts = token.split("\\.");
    var payload = Base64.getUrlEncoder().withoutPadding()
      .encodeToString(claims.encode().getBytes(StandardCharsets.UTF_8));
    return parts[0] + "." + payload + "." + parts[2];
  }
}
