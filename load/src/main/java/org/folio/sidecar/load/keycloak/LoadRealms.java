package org.folio.sidecar.load.keycloak;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.folio.sidecar.load.fleet.CirculationModules;
import org.folio.sidecar.testkit.FolioRealms;
import org.folio.sidecar.testkit.KeycloakAdmin;
import org.folio.sidecar.testkit.TestTenant;

/**
 * The load run's tenant realms, FOLIO-style: the login client holds one resource per endpoint of the six
 * modules; role System (the module-access client's service account) may call all of them; role
 * circulation-staff, held by every user, may call the endpoints in {@link CirculationModules#STAFF_PERMISSIONS}.
 * Passwords are hashed with one iteration: logins are set-up here, not what is measured.
 */
public final class LoadRealms {

  static final String STAFF_ROLE = "circulation-staff";
  /** The secret of the master realm's backend-admin client, which every sidecar of the runs is given. */
  public static final String ADMIN_SECRET = "backend-admin-secret-0123456789";

  /** A user of the run: tenant, Keycloak username and the FOLIO user id carried in {@code user_id}. */
  public record LoadUser(String tenant, String username, String userId) {
  }

  private final KeycloakAdmin admin;
  private final FolioRealms realms;

  public LoadRealms(KeycloakAdmin admin) {
    this.admin = admin;
    this.realms = new FolioRealms(admin);
  }

  public static String tenantName(int index) {
    return String.format("lt%03d", index);
  }

  /** Creates the realm in three Admin API calls and returns its users. */
  public List<LoadUser> provision(String tenant, int users, int accessTokenLifespanSeconds) {
    admin.expect("DELETE", "/" + tenant, null, 204, 404);
    admin.expect("POST", "", new JsonObject()
      .put("realm", tenant).put("enabled", true)
      .put("accessTokenLifespan", accessTokenLifespanSeconds)
      .put("ssoSessionIdleTimeout", 86400).put("ssoSessionMaxLifespan", 86400)
      .put("passwordPolicy", "hashIterations(1)")
      .put("roles", new JsonObject().put("realm", new JsonArray()
        .add(new JsonObject().put("name", "System")).add(new JsonObject().put("name", STAFF_ROLE))))
      .put("clients", new JsonArray().add(loginClient(tenant)).add(FolioRealms.serviceClient()))
      .put("users", FolioRealms.serviceAccounts(tenant)), 201);
    // user_id is an unmanaged attribute: the profile must allow it before users carry it
    realms.enableUnmanagedAttributes(tenant);
    var created = new ArrayList<LoadUser>();
    var representations = new JsonArray();
    for (int i = 1; i <= users; i++) {
      var username = tenant + "_staff" + i;
      var user = new LoadUser(tenant, username, UUID.nameUUIDFromBytes(username.getBytes()).toString());
      created.add(user);
      representations.add(new JsonObject().put("username", username).put("enabled", true)
        .put("firstName", "Staff").put("lastName", username).put("email", username + "@example.org")
        .put("emailVerified", true).put("realmRoles", new JsonArray().add(STAFF_ROLE))
        .put("attributes", new JsonObject().put("user_id", new JsonArray().add(user.userId())))
        .put("credentials", new JsonArray().add(new JsonObject()
          .put("type", "password").put("value", TestTenant.PASSWORD).put("temporary", false))));
    }
    admin.expect("POST", "/" + tenant + "/partialImport", new JsonObject()
      .put("ifResourceExists", "OVERWRITE").put("users", representations), 200);
    return created;
  }

  private static JsonObject loginClient(String tenant) {
    var policies = FolioRealms.systemRolePolicies()
      .add(new JsonObject().put("type", "role").put("name", "Staff role policy").put("logic", "POSITIVE")
        .put("decisionStrategy", "UNANIMOUS")
        .put("config", new JsonObject().put("roles", "[{\"id\":\"" + STAFF_ROLE + "\",\"required\":false}]")
          .put("fetchRoles", "true")));
    var resources = new JsonArray();
    CirculationModules.resources().forEach((path, methods) -> {
      var scopes = new JsonArray();
      methods.forEach(method -> scopes.add(new JsonObject().put("name", method)));
      resources.add(new JsonObject().put("name", path).put("scopes", scopes));
    });
    for (var module : CirculationModules.ALL) {
      for (var endpoint : module.endpoints()) {
        if (CirculationModules.STAFF_PERMISSIONS.contains(endpoint.permission())) {
          policies.add(new JsonObject().put("type", "scope").put("name", "Staff: " + endpoint.permission())
            .put("logic", "POSITIVE").put("decisionStrategy", "UNANIMOUS")
            .put("config", new JsonObject()
              .put("resources", new JsonArray().add(endpoint.path()).encode())
              .put("scopes", new JsonArray().add(endpoint.method()).encode())
              .put("applyPolicies", new JsonArray().add("Staff role policy").encode())));
        }
      }
    }
    return FolioRealms.loginClient(tenant, resources, policies);
  }
}
