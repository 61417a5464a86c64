package org.folio.sidecar.egress;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.folio.sidecar.support.LogCapture;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestModule;
import org.folio.sidecar.testkit.TestPlatform;
import org.folio.sidecar.testkit.Tokens;
import org.folio.sidecar.token.SystemUserTokens;
import org.jboss.logmanager.Level;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Item 5: the module's bootstrap says {@code systemUserRequired}; its egress calls without a user token get
 * its system user's token from the real Keycloak (password grant as MODULE_NAME through the tenant's login
 * client, secrets under upstream's keys), one per tenant, shared. A tenant whose system user's token cannot be had
 * gets a 503 with Retry-After (HANDLER_EGRESS_IGNORE_SYSTEM_USER_TOKEN_ERROR=false, the default; the shared test
 * platform sets true for its module without a system user).
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true, initArgs = {
  @ResourceArg(name = "module.descriptor-path", value = "${testplatform.descriptor.system-user}"),
  @ResourceArg(name = "egress.ignore-system-user-token-error", value = "false")})
class SystemUserTokenTest {

  private final TestPlatform platform = TestPlatform.get();

  @Inject
  SystemUserTokens systemUserTokens;

  @BeforeEach
  void resetModule() {
    platform.resetModule();
  }

  @Test
  void callsWithoutAUserTokenCarryTheSystemUsersSharedToken() {
    given().header("x-okapi-tenant", "alpha").get("/users/11").then().statusCode(200);
    given().header("x-okapi-tenant", "alpha").header("x-okapi-token", "null").get("/users/12").then().statusCode(200);
    // an Authorization header alone is no user token on egress
    given().header("x-okapi-tenant", "alpha").header("Authorization", "Bearer x").get("/users/13").then()
      .statusCode(200);

    var tokens = new java.util.HashSet<String>();
    for (var id : new String[]{"11", "12", "13"}) {
      var sent = platform.others().findAll(getRequestedFor(urlEqualTo("/users/" + id))).get(0);
      tokens.add(sent.getHeader("x-okapi-token"));
      assertThat(sent.getHeader("x-system-token")).isNotBlank();
    }
    assertThat(tokens).hasSize(1);
    var claims = Tokens.claims(tokens.iterator().next());
    // the system user is the Keycloak user named like the module (FolioRealms.provisionSystemUser)
    assertThat(claims.getString("user_id"))
      .isEqualTo(java.util.UUID.nameUUIDFromBytes(TestModule.NAME.getBytes()).toString());
    assertThat(claims.getString("iss")).endsWith("/realms/alpha");
    // a lightweight token, as the login client issues them (LightweightTokensTest)
    assertThat(claims.fieldNames()).doesNotContain("preferred_username", "email", "realm_access");
  }

  @Test
  void atDebugTheSystemUserTokenCallIsLoggedWithoutTheToken() {
    // the module stops and starts requiring a system user: every tenant's token is dropped
    systemUserTokens.evictAll();
    try (var capture = LogCapture.at(Level.DEBUG, "org.folio.sidecar.token")) {
      given().header("x-okapi-tenant", "alpha").get("/users/16").then().statusCode(200);

      assertThat(capture.lines()).anyMatch(line -> line.matches("org\\.folio\\.sidecar\\.token\\.KeycloakCallLog "
        + "Keycloak system user token call for realm alpha: answered 200 after \\d+ ms"));
      var token = platform.others().findAll(getRequestedFor(urlEqualTo("/users/16"))).get(0)
        .getHeader("x-okapi-token");
      assertThat(capture.lines()).noneMatch(line -> line.contains(token.split("\\.")[1]));
    }
  }

  @Test
  void theModulesOwnUserTokenIsKept() {
    given().header("x-okapi-tenant", "alpha").header("x-okapi-token", "module-user-token").get("/users/14")
      .then().statusCode(200);

    platform.others().verify(1, getRequestedFor(urlEqualTo("/users/14"))
      .withHeader("x-okapi-token", com.github.tomakehurst.wiremock.client.WireMock.equalTo("module-user-token")));
  }

  @Test
  void aTenantWhoseSystemUserTokenCannotBeHadFailsFastWithARetryableAnswer() {
    // beta has no system-user secrets: upstream MODSIDECAR-197's 503, never a call forwarded without a user
    given().header("x-okapi-tenant", "beta").get("/users/15").then().statusCode(503)
      .header("Retry-After", "1")
      .body("errors[0].type", equalTo("SystemUserTokenUnavailableException"))
      .body("errors[0].code", equalTo("service_error"))
      .body("errors[0].message", equalTo("System user token is unavailable. Retry later"))
      .body("total_records", equalTo(1));

    platform.others().verify(0, getRequestedFor(urlEqualTo("/users/15")));
  }

  @Test
  void failingFastIsTheDefaultAsUpstreamMasters() throws Exception {
    var properties = java.nio.file.Files.readString(java.nio.file.Path.of("src/main/resources/application.properties"));

    assertThat(properties).contains("${HANDLER_EGRESS_IGNORE_SYSTEM_USER_TOKEN_ERROR:false}");
    assertThat(org.folio.sidecar.testkit.ConfigMappings.load(org.folio.sidecar.config.EgressConfig.class,
      java.util.Map.of()).ignoreSystemUserTokenError()).isFalse();
  }
}
