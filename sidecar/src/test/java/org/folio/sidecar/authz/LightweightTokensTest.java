package org.folio.sidecar.authz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.folio.sidecar.support.SidecarCalls.awaitKeycloakDecides;
import static org.folio.sidecar.support.SidecarCalls.get;
import static org.folio.sidecar.support.SidecarCalls.umaCalls;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.folio.sidecar.support.AccessLines;
import org.folio.sidecar.support.LogCapture;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.FolioRealms;
import org.folio.sidecar.testkit.TestPlatform;
import org.folio.sidecar.testkit.TestTenant;
import org.folio.sidecar.testkit.Tokens;
import org.folio.sidecar.support.SidecarCalls;
import org.junit.jupiter.api.Test;

/**
 * Keycloak's lightweight access tokens, as FOLIO's performance team tried them: the test realms' clients have
 * {@code client.use.lightweight.access.token.enabled=true} and FOLIO's mappers {@code lightweight.claim=true}
 * (FolioRealms, as mgr-tenants sets them), so every token of the suite is one. This class shows what is left
 * in them and that decisions, the cache and its counts work on them; a token whose user_id mapper is not marked
 * lightweight loses the claim and is refused with a reason naming it. CrossTenantTest and SystemUserTokenTest
 * run the exchanged and system-user tokens, lightweight too.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class LightweightTokensTest {

  /** What Keycloak writes into a lightweight token with FOLIO's mappers; {@code scope} depends on the version. */
  private static final java.util.Set<String> LIGHTWEIGHT_CLAIMS = java.util.Set.of("exp", "iat", "jti", "iss", "sub",
    "typ", "azp", "sid", "scope", "user_id");
  private static final String NO_USER_ID_CLIENT = "alpha-user-id-not-lightweight";

  private final TestPlatform platform = TestPlatform.get();

  @Test
  void lightweightTokensCarryWhatTheSidecarNeedsAndAreAllowedOrDenied() {
    awaitKeycloakDecides();
    var alpha = platform.alpha();
    var allowed = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
    var denied = platform.tokens().login(alpha, alpha.denied()).getString("access_token");
    var service = platform.serviceToken("alpha");

    var user = Tokens.claims(allowed);
    assertThat(LIGHTWEIGHT_CLAIMS).containsAll(user.fieldNames());
    assertThat(user.fieldNames()).contains("user_id", "sid", "azp")
      .doesNotContain("preferred_username", "email", "realm_access", "resource_access", "aud");
    assertThat(user.getString("user_id")).isEqualTo(alpha.allowed().folioId());
    assertThat(LIGHTWEIGHT_CLAIMS).containsAll(Tokens.claims(service).fieldNames());
    assertThat(Tokens.claims(service).fieldNames()).contains("azp").doesNotContain("user_id", "sid");

    get("alpha", allowed, "/items/81").statusCode(200);
    get("alpha", denied, "/items/81").statusCode(403);
    get("alpha", service, "/items/81").statusCode(200);
  }

  @Test
  void decisionsAreKeyedByUser() {
    awaitKeycloakDecides();
    SidecarCalls.forgetDecisions();
    var alpha = platform.alpha();
    var login = platform.tokens().login(alpha, alpha.allowed());
    int before = umaCalls();

    get("alpha", login.getString("access_token"), "/items/82").statusCode(200);
    get("alpha", platform.tokens().refresh(alpha, login).getString("access_token"), "/items/83").statusCode(200);
    assertThat(umaCalls() - before).as("one session, refreshed").isEqualTo(1);

    get("alpha", platform.tokens().login(alpha, alpha.allowed()).getString("access_token"), "/items/84")
      .statusCode(200);
    assertThat(umaCalls() - before).as("the same user's new session hits").isEqualTo(1);
    get("alpha", platform.tokens().login(alpha, alpha.denied()).getString("access_token"), "/items/85")
      .statusCode(403);
    assertThat(umaCalls() - before).as("another user").isEqualTo(2);
  }

  @Test
  void aUserTokenWithoutUserIdIsRefusedNamingTheClaim() {
    // Given a login client whose user_id mapper is not marked for lightweight tokens
    var alpha = platform.alpha();
    var client = new JsonObject().put("clientId", NO_USER_ID_CLIENT).put("enabled", true)
      .put("secret", TestTenant.LOGIN_SECRET).put("clientAuthenticatorType", "client-secret")
      .put("publicClient", false).put("directAccessGrantsEnabled", true)
      .put("attributes", new JsonObject().put("client.use.lightweight.access.token.enabled", "true"))
      .put("protocolMappers", new JsonArray()
        .add(FolioRealms.mapper("username", "oidc-usermodel-property-mapper", "username", "sub"))
        .add(withoutLightweight(FolioRealms.mapper("user_id mapper", "oidc-usermodel-attribute-mapper", "user_id",
          "user_id")))
        .add(FolioRealms.subjectMapper()));
    platform.keycloakAdmin().expect("POST", "/alpha/clients", client, 201, 409);
    var token = platform.keycloakAdmin().token("alpha", Map.of("grant_type", "password", "client_id",
      NO_USER_ID_CLIENT, "client_secret", TestTenant.LOGIN_SECRET, "username", alpha.allowed().username(),
      "password", TestTenant.PASSWORD)).getString("access_token");
    assertThat(Tokens.claims(token).fieldNames()).contains("sid", "azp").doesNotContain("user_id");

    try (var capture = LogCapture.install()) {
      int before = umaCalls();
      // When its user's token is used
      get("alpha", token, "/items/86").statusCode(401);

      // Then Keycloak is not asked, and the access line says which claim is missing
      assertThat(umaCalls() - before).isZero();
      AccessLines.assertReason(capture, "GET /items/86 401", "lacks the user_id claim");
    }
  }

  private static JsonObject withoutLightweight(JsonObject mapper) {
    mapper.getJsonObject("config").put("lightweight.claim", "false");
    return mapper;
  }
}
