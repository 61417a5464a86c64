package org.folio.sidecar.testkit;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Provisions tenant realms the way FOLIO's managers do (mgr-tenants, mgr-tenant-entitlements,
 * mod-roles-keycloak), through the Admin REST API: a login client with authorization services and one resource
 * per module path, the module-access client whose service account holds role System, users with a
 * {@code user_id} attribute, and per-user scope permissions.
 */
public final class FolioRealms {

  private static final List<String> SCOPES = List.of("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS");
  public static final String SERVICE_CLIENT = "sidecar-module-access-client";
  /** The one endpoint the "allowed" user is not granted, so denials can be tested with a permitted user too. */
  public static final String WITHHELD = "DELETE /items/{id}";

  private final KeycloakAdmin admin;

  public FolioRealms(KeycloakAdmin admin) {
    this.admin = admin;
  }

  public TestTenant provision(String tenant, int accessTokenLifespanSeconds) {
    admin.expect("DELETE", "/" + tenant, null, 204, 404);
    admin.expect("POST", "", new JsonObject()
      .put("realm", tenant).put("enabled", true)
      .put("accessTokenLifespan", accessTokenLifespanSeconds)
      .put("ssoSessionIdleTimeout", 86400).put("ssoSessionMaxLifespan", 86400)
      .put("revokeRefreshToken", true).put("refreshTokenMaxReuse", 0)
      .put("roles", new JsonObject().put("realm", new JsonArray().add(new JsonObject().put("name", "System")))), 201);
    enableUnmanagedAttributes(tenant);
    var allowed = TestTenant.User.of(tenant, "allowed");
    var denied = TestTenant.User.of(tenant, "denied");
    createUser(tenant, allowed);
    createUser(tenant, denied);
    admin.expect("POST", "/" + tenant + "/clients", loginClient(tenant, allowed), 201);
    createServiceClient(tenant);
    var key = rsaKeyPair();
    var keyId = installSigningKey(tenant, key);
    return new TestTenant(tenant, allowed, denied, key, keyId);
  }

  /**
   * A realm in one Admin API call (the full-JSON way): the login client with the module's resources and the
   * System role permission, and the module-access client whose service account holds System. No users.
   */
  public void provisionServiceOnly(String tenant) {
    provisionServiceOnly(tenant, 600);
  }

  /** As {@link #provisionServiceOnly(String)}, with tokens living {@code lifespanSeconds}. */
  public void provisionServiceOnly(String tenant, int lifespanSeconds) {
    admin.expect("DELETE", "/" + tenant, null, 204, 404);
    var login = loginClient(tenant, TestTenant.User.of(tenant, "nobody"));
    var serviceClient = serviceClient();
    // the user policy of the full provisioning names a user this realm does not have
    var policies = login.getJsonObject("authorizationSettings").getJsonArray("policies");
    var systemOnly = new JsonArray();
    policies.forEach(policy -> {
      var name = ((JsonObject) policy).getString("name");
      if (name.startsWith("System role")) {
        systemOnly.add(policy);
      }
    });
    login.getJsonObject("authorizationSettings").put("policies", systemOnly);
    admin.expect("POST", "", new JsonObject()
      .put("realm", tenant).put("enabled", true).put("accessTokenLifespan", lifespanSeconds)
      .put("roles", new JsonObject().put("realm", new JsonArray().add(new JsonObject().put("name", "System"))))
      .put("clients", new JsonArray().add(login).add(serviceClient))
      .put("users", serviceAccounts(tenant)), 201);
  }

  /** The module-access client, whose client-credentials tokens are the tenant's service tokens. */
  public static JsonObject serviceClient() {
    return new JsonObject()
      .put("clientId", SERVICE_CLIENT).put("enabled", true).put("secret", TestTenant.SERVICE_SECRET)
      .put("clientAuthenticatorType", "client-secret").put("publicClient", false)
      .put("serviceAccountsEnabled", true).put("standardFlowEnabled", false)
      .put("attributes", new JsonObject().put("client.use.lightweight.access.token.enabled", "true"))
      .put("protocolMappers", new JsonArray().add(subjectMapper()));
  }

  /** The service accounts of a full-JSON realm: the module-access client's holds role System. */
  public static JsonArray serviceAccounts(String tenant) {
    return new JsonArray()
      .add(new JsonObject().put("username", "service-account-" + SERVICE_CLIENT).put("enabled", true)
        .put("serviceAccountClientId", SERVICE_CLIENT).put("realmRoles", new JsonArray().add("System")))
      .add(new JsonObject().put("username", "service-account-" + tenant + "-login-application")
        .put("enabled", true).put("serviceAccountClientId", tenant + "-login-application"));
  }

  /**
   * The impersonation client of a realm, wired as mgr-tenants does it: users-management permissions on, and
   * the realm-management "impersonate" permission granted to a client policy naming this client.
   */
  public void provisionImpersonation(String tenant, String secret) {
    var permissions = admin.expect("PUT", "/" + tenant + "/users-management-permissions",
      new JsonObject().put("enabled", true), 200).json();
    var impersonatePermission = permissions.getJsonObject("scopePermissions").getString("impersonate");
    var created = admin.expect("POST", "/" + tenant + "/clients", new JsonObject()
      .put("clientId", "impersonation-client").put("enabled", true).put("secret", secret)
      .put("clientAuthenticatorType", "client-secret").put("publicClient", false)
      .put("serviceAccountsEnabled", true).put("standardFlowEnabled", false)
      .put("attributes", new JsonObject().put("client.use.lightweight.access.token.enabled", "true"))
      // the login client's mappers, so impersonated tokens carry user_id like any FOLIO user token
      .put("protocolMappers", new JsonArray()
        .add(mapper("username", "oidc-usermodel-property-mapper", "username", "sub"))
        .add(mapper("user_id mapper", "oidc-usermodel-attribute-mapper", "user_id", "user_id"))
        .add(subjectMapper())),
      201, 409);
    var clientId = created.status() == 201
      ? created.createdId()
      : admin.expect("GET", "/" + tenant + "/clients?clientId=impersonation-client", null, 200).array()
        .getJsonObject(0).getString("id");
    var realmManagement = admin.expect("GET", "/" + tenant + "/clients?clientId=realm-management", null, 200).array()
      .getJsonObject(0).getString("id");
    var server = "/" + tenant + "/clients/" + realmManagement + "/authz/resource-server";
    admin.expect("POST", server + "/policy/client", new JsonObject().put("name", "impersonation-policy")
      .put("logic", "POSITIVE").put("clients", new JsonArray().add(clientId)), 201, 409);
    var permission = admin.expect("GET", server + "/permission/scope/" + impersonatePermission, null, 200).json();
    permission.put("policies", new JsonArray().add("impersonation-policy"));
    admin.expect("PUT", server + "/permission/scope/" + impersonatePermission, permission, 200, 201, 204);
  }

  /** The master realm's backend admin client, as the folio-keycloak image has it (mgr-* calls use its token). */
  public void provisionAdminClient(String secret) {
    admin.expect("POST", "/master/clients", new JsonObject()
      .put("clientId", "folio-backend-admin-client").put("enabled", true).put("secret", secret)
      .put("clientAuthenticatorType", "client-secret").put("publicClient", false)
      .put("serviceAccountsEnabled", true).put("standardFlowEnabled", false), 201, 409);
  }

  /** Grants a user one more endpoint, as mod-roles-keycloak does; returns the permission's id for {@link #revoke}. */
  public String grant(TestTenant tenant, TestTenant.User user, String path, String method) {
    var clientId = loginClientId(tenant);
    var server = "/" + tenant.name() + "/clients/" + clientId + "/authz/resource-server";
    var kcUserId = admin.expect("GET", "/" + tenant.name() + "/users?exact=true&username=" + user.username(), null, 200)
      .array().getJsonObject(0).getString("id");
    var policyName = "Policy for user: " + user.folioId();
    var existing = admin.expect("GET", server + "/policy/search?name=" + encode(policyName), null, 200, 204);
    var policyId = existing.status() == 200
      ? existing.json().getString("id")
      : admin.expect("POST", server + "/policy/user", new JsonObject().put("name", policyName).put("logic", "POSITIVE")
        .put("users", new JsonArray().add(kcUserId)), 201).json().getString("id");
    var resource = admin.expect("GET", server + "/resource?exactName=true&deep=true&name=" + encode(path), null, 200)
      .array().getJsonObject(0);
    String scopeId = null;
    for (var scope : resource.getJsonArray("scopes")) {
      if (method.equals(((JsonObject) scope).getString("name"))) {
        scopeId = ((JsonObject) scope).getString("id");
      }
    }
    return admin.expect("POST", server + "/permission/scope", new JsonObject()
      .put("name", method + " access for user '" + user.folioId() + "' to '" + path + "'")
      .put("decisionStrategy", "UNANIMOUS").put("logic", "POSITIVE")
      .put("policies", new JsonArray().add(policyId))
      .put("resources", new JsonArray().add(resource.getString("_id")))
      .put("scopes", new JsonArray().add(scopeId)), 201).json().getString("id");
  }

  public void revoke(TestTenant tenant, String permissionId) {
    admin.expect("DELETE", "/" + tenant.name() + "/clients/" + loginClientId(tenant)
      + "/authz/resource-server/permission/" + permissionId, null, 204);
  }

  /**
   * Sets the secret of the tenant's module-access client in Keycloak, as an operator rotating it there does: the
   * sidecar's secret store keeps the old one until it is updated too.
   */
  public void setServiceClientSecret(String tenant, String secret) {
    var client = admin.expect("GET", "/" + tenant + "/clients?clientId=" + SERVICE_CLIENT, null, 200).array()
      .getJsonObject(0);
    client.put("secret", secret);
    admin.expect("PUT", "/" + tenant + "/clients/" + client.getString("id"), client, 204);
  }

  private String loginClientId(TestTenant tenant) {
    return admin.expect("GET", "/" + tenant.name() + "/clients?clientId=" + tenant.loginClient(), null, 200)
      .array().getJsonObject(0).getString("id");
  }

  private static String encode(String value) {
    return java.net.URLEncoder.encode(value, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
  }

  public void enableUnmanagedAttributes(String tenant) {
    var profile = admin.expect("GET", "/" + tenant + "/users/profile", null, 200).json();
    profile.put("unmanagedAttributePolicy", "ENABLED");
    admin.expect("PUT", "/" + tenant + "/users/profile", profile, 200);
  }

  /** The module's system user (named like the module), as mgr-tenant-entitlements creates it on install. */
  public void provisionSystemUser(String tenant, String moduleName) {
    createUser(tenant,
      new TestTenant.User(moduleName, java.util.UUID.nameUUIDFromBytes(moduleName.getBytes()).toString()));
  }

  private void createUser(String tenant, TestTenant.User user) {
    admin.expect("POST", "/" + tenant + "/users", new JsonObject()
      .put("username", user.username()).put("enabled", true)
      .put("firstName", "Test").put("lastName", user.username()).put("email", user.username() + "@example.org")
      .put("emailVerified", true)
      .put("attributes", new JsonObject().put("user_id", new JsonArray().add(user.folioId())))
      .put("credentials", new JsonArray().add(new JsonObject()
        .put("type", "password").put("value", TestTenant.PASSWORD).put("temporary", false))),
      201);
  }

  private static JsonObject loginClient(String tenant, TestTenant.User allowed) {
    var resources = new JsonArray();
    var policies = systemRolePolicies()
      .add(new JsonObject().put("type", "user").put("name", userPolicy(allowed)).put("logic", "POSITIVE")
        .put("config", new JsonObject().put("users", new JsonArray().add(allowed.username()).encode())));
    for (var resource : moduleResources().entrySet()) {
      var scopes = new JsonArray();
      for (var method : resource.getValue()) {
        scopes.add(new JsonObject().put("name", method));
        if (!WITHHELD.equals(method + " " + resource.getKey())) {
          policies.add(userPermission(allowed, resource.getKey(), method));
        }
      }
      resources.add(new JsonObject().put("name", resource.getKey()).put("scopes", scopes));
    }
    return loginClient(tenant, resources, policies);
  }

  /**
   * One more login client of the tenant, named {@code <tenant><suffix>} (folio-helm-v2 sets KC_LOGIN_CLIENT_SUFFIX
   * to {@code -application}) with the same resources and grants as the usual one; nothing if it exists.
   */
  public void addLoginClient(TestTenant tenant, String suffix) {
    var client = loginClient(tenant.name(), tenant.allowed()).put("clientId", tenant.name() + suffix);
    admin.expect("POST", "/" + tenant.name() + "/clients", client, 201, 409);
  }

  /**
   * Another module's endpoint as an authorization resource of a login client, as mgr-tenant-entitlements adds it on
   * entitlement (one resource per path, its methods as scopes); nothing if it exists. Only the System role's
   * permission covers it: service tokens are allowed, users are not.
   */
  public void addResource(String tenant, String loginClient, String path, String method) {
    var clientId = admin.expect("GET", "/" + tenant + "/clients?clientId=" + loginClient, null, 200).array()
      .getJsonObject(0).getString("id");
    admin.expect("POST", "/" + tenant + "/clients/" + clientId + "/authz/resource-server/resource", new JsonObject()
      .put("name", path).put("scopes", new JsonArray().add(new JsonObject().put("name", method))), 201, 409);
  }

  /** The role policy for System and the permission granting it every scope of every resource. */
  public static JsonArray systemRolePolicies() {
    return new JsonArray()
      .add(new JsonObject().put("type", "role").put("name", "System role policy").put("logic", "POSITIVE")
        .put("decisionStrategy", "UNANIMOUS")
        .put("config",
          new JsonObject().put("roles", "[{\"id\":\"System\",\"required\":false}]").put("fetchRoles", "true")))
      .add(new JsonObject().put("type", "scope").put("name", "System role permission").put("logic", "POSITIVE")
        .put("decisionStrategy", "UNANIMOUS")
        .put("config", new JsonObject().put("scopes", new JsonArray(SCOPES).encode())
          .put("applyPolicies", "[\"System role policy\"]")));
  }

  /** The tenant's login client with authorization services holding {@code resources} and {@code policies}. */
  public static JsonObject loginClient(String tenant, JsonArray resources, JsonArray policies) {
    var scopes = new JsonArray();
    SCOPES.forEach(scope -> scopes.add(new JsonObject().put("name", scope)));
    return new JsonObject()
      .put("clientId", tenant + "-login-application").put("enabled", true)
      .put("secret", TestTenant.LOGIN_SECRET).put("clientAuthenticatorType", "client-secret")
      .put("serviceAccountsEnabled", true).put("authorizationServicesEnabled", true)
      .put("directAccessGrantsEnabled", true).put("publicClient", false)
      .put("frontchannelLogout", true).put("redirectUris", new JsonArray().add("/*"))
      .put("attributes", new JsonObject().put("client.use.lightweight.access.token.enabled", "true"))
      .put("protocolMappers", new JsonArray()
        .add(mapper("username", "oidc-usermodel-property-mapper", "username", "sub"))
        .add(mapper("user_id mapper", "oidc-usermodel-attribute-mapper", "user_id", "user_id"))
        .add(subjectMapper()))
      .put("authorizationSettings", new JsonObject()
        .put("decisionStrategy", "AFFIRMATIVE").put("policyEnforcementMode", "ENFORCING")
        .put("allowRemoteResourceManagement", true)
        .put("scopes", scopes).put("resources", resources).put("policies", policies));
  }

  static String userPolicy(TestTenant.User user) {
    return "Policy for user: " + user.folioId();
  }

  static JsonObject userPermission(TestTenant.User user, String path, String method) {
    return new JsonObject().put("type", "scope")
      .put("name", method + " access for user '" + user.folioId() + "' to '" + path + "'")
      .put("logic", "POSITIVE").put("decisionStrategy", "UNANIMOUS")
      .put("config", new JsonObject()
        .put("resources", new JsonArray().add(path).encode())
        .put("scopes", new JsonArray().add(method).encode())
        .put("applyPolicies", new JsonArray().add(userPolicy(user)).encode()));
  }

  /** Path → methods of the test module's protected endpoints, one Keycloak resource per path. */
  static Map<String, Set<String>> moduleResources() {
    var resources = new LinkedHashMap<String, Set<String>>();
    var interfaces = TestModule.descriptor().getJsonArray("provides");
    for (int i = 0; i < interfaces.size(); i++) {
      var anInterface = interfaces.getJsonObject(i);
      if ("system".equals(anInterface.getString("interfaceType"))) {
        continue;
      }
      for (var handler : anInterface.getJsonArray("handlers")) {
        var entry = (JsonObject) handler;
        if (entry.getJsonArray("permissionsRequired").isEmpty()) {
          continue;
        }
        var methods = resources.computeIfAbsent(entry.getString("pathPattern"), p -> new LinkedHashSet<>());
        entry.getJsonArray("methods").forEach(method -> methods.add((String) method));
      }
    }
    return resources;
  }

  public static JsonObject mapper(String name, String type, String attribute, String claim) {
    var config = new JsonObject()
      .put("user.attribute", attribute)
      .put("claim.name", claim).put("jsonType.label", "String")
      .put("id.token.claim", "true").put("access.token.claim", "true").put("userinfo.token.claim", "true")
      .put("lightweight.claim", "true");
    return new JsonObject().put("name", name).put("protocol", "openid-connect").put("protocolMapper", type)
      .put("config", config);
  }

  public static JsonObject subjectMapper() {
    return new JsonObject().put("name", "Subject (sub)").put("protocol", "openid-connect")
      .put("protocolMapper", "oidc-sub-mapper")
      .put("config", new JsonObject().put("access.token.claim", "true").put("introspection.token.claim", "true")
        .put("lightweight.claim", "true"));
  }

  private void createServiceClient(String tenant) {
    var created = admin.expect("POST", "/" + tenant + "/clients", serviceClient(), 201);
    var serviceAccount = admin.expect("GET", "/" + tenant + "/clients/" + created.createdId() + "/service-account-user",
      null, 200).json();
    var systemRole = admin.expect("GET", "/" + tenant + "/roles/System", null, 200).json();
    admin.expect("POST", "/" + tenant + "/users/" + serviceAccount.getString("id") + "/role-mappings/realm",
      new JsonArray().add(systemRole), 204);
  }

  /** Makes the realm sign with a key the tests hold; returns that key's id. */
  private String installSigningKey(String tenant, KeyPair key) {
    var realmId = admin.expect("GET", "/" + tenant, null, 200).json().getString("id");
    var pem = "-----BEGIN PRIVATE KEY-----\n"
      + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(key.getPrivate().getEncoded())
      + "\n-----END PRIVATE KEY-----";
    var created = admin.expect("POST", "/" + tenant + "/components", new JsonObject()
      .put("name", "test-rsa").put("providerId", "rsa").put("providerType", "org.keycloak.keys.KeyProvider")
      .put("parentId", realmId)
      .put("config", new JsonObject()
        .put("priority", new JsonArray().add("1000")).put("enabled", new JsonArray().add("true"))
        .put("active", new JsonArray().add("true")).put("algorithm", new JsonArray().add("RS256"))
        .put("privateKey", new JsonArray().add(pem))),
      201);
    var keys = admin.expect("GET", "/" + tenant + "/keys", null, 200).json().getJsonArray("keys");
    var kids = new ArrayList<String>();
    for (var item : keys) {
      var k = (JsonObject) item;
      if (created.createdId().equals(k.getString("providerId"))) {
        return k.getString("kid");
      }
      kids.add(k.getString("kid"));
    }
    throw new IllegalStateException("installed key not listed for " + tenant + ": " + kids);
  }

  static KeyPair rsaKeyPair() {
    try {
      var generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      return generator.generateKeyPair();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
