package org.folio.sidecar.testkit;

import java.security.KeyPair;
import java.util.UUID;

/**
 * A tenant realm provisioned for the tests. {@code allowed} holds every endpoint permission but
 * {@code DELETE /items/{id}}; {@code denied} holds none. The realm signs with {@code signingKey}, a key the
 * tests know, so they can also mint expired or tampered tokens that carry a valid-looking key id.
 */
public record TestTenant(String name, User allowed, User denied, KeyPair signingKey, String keyId) {

  public static final String PASSWORD = "secret-password";
  public static final String LOGIN_SECRET = "login-client-secret-0123456789abcdef";
  public static final String SERVICE_SECRET = "module-access-secret-0123456789abcdef";

  public String loginClient() {
    return name + "-login-application";
  }

  /** A FOLIO user: Keycloak username plus the FOLIO user id carried in the {@code user_id} claim. */
  public record User(String username, String folioId) {

    static User of(String tenant, String role) {
      // the same FOLIO user id in every tenant, so tests can show that tenants never share decisions
      return new User(tenant + "_" + role, UUID.nameUUIDFromBytes(role.getBytes()).toString());
    }
  }
}
