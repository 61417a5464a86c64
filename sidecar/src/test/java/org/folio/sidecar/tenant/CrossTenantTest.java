package org.folio.sidecar.tenant;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.folio.sidecar.support.SidecarCalls.get;

import com.github.tomakehurst.wiremock.client.WireMock;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.folio.sidecar.support.LogCapture;
import org.folio.sidecar.testkit.CountingHop.Kind;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.folio.sidecar.testkit.TestTenant;
import org.folio.sidecar.testkit.Tokens;
import org.jboss.logmanager.Level;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Consortia: a user of alpha acts in beta through introspection and token exchange against the real Keycloak. */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true, initArgs = {
  @ResourceArg(name = "sidecar.allow-cross-tenant-requests", value = "true"),
  @ResourceArg(name = "secret-store.ephemeral.content.folio_alpha_alpha-login-application", value = TestTenant.LOGIN_SECRET),
  @ResourceArg(name = "secret-store.ephemeral.content.folio_beta_impersonation-client", value = TestPlatform.IMPERSONATION_SECRET)})
class CrossTenantTest {

  private final TestPlatform platform = TestPlatform.get();

  @BeforeEach
  void setUp() {
    platform.resetModule();
    platform.impersonationInBeta();
    // mod-users-keycloak of beta knows the alpha user (same FOLIO id) as beta_allowed
    var alphaUser = platform.alpha().allowed().folioId();
    platform.managers().stubFor(WireMock.get(urlEqualTo("/users-keycloak/users/" + alphaUser))
      .willReturn(WireMock.okJson("{\"id\":\"" + alphaUser + "\",\"username\":\"beta_allowed\"}")));
  }

  @Test
  void userOfAlphaReachesBetasModuleWithABetaTokenAndFiftyCallsCostOneIntrospectionAndOneExchange() {
    var alpha = platform.alpha();
    var token = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
    var hop = platform.keycloakHop();
    int introspections = hop.count(Kind.INTROSPECT);
    int exchanges = hop.count(Kind.EXCHANGE);

    // at DEBUG (runbook "Debug one sidecar's log"), each of the two Keycloak calls is logged with its outcome
    try (var capture = LogCapture.at(Level.DEBUG, "org.folio.sidecar.token")) {
      for (int i = 0; i < 50; i++) {
        get("beta", token, "/items/31").statusCode(200);
      }

      assertThat(capture.lines()).anyMatch(line -> line.matches("org\\.folio\\.sidecar\\.token\\.KeycloakCallLog "
        + "Keycloak token introspection call for realm alpha: answered 200 after \\d+ ms"));
      assertThat(capture.lines()).anyMatch(line -> line.matches("org\\.folio\\.sidecar\\.token\\.KeycloakCallLog "
        + "Keycloak token exchange call for realm beta: answered 200 after \\d+ ms"));
      assertThat(capture.lines()).noneMatch(line -> line.contains(token.split("\\.")[1]));
    }
    assertThat(hop.count(Kind.INTROSPECT) - introspections).isEqualTo(1);
    assertThat(hop.count(Kind.EXCHANGE) - exchanges).isEqualTo(1);
    var forwarded = platform.module().findAll(getRequestedFor(urlEqualTo("/items/31"))).get(0)
      .getHeader("x-okapi-token");
    var claims = Tokens.claims(forwarded);
    assertThat(claims.getString("iss")).endsWith("/realms/beta");
    assertThat(claims.getString("azp")).isEqualTo("impersonation-client");
    assertThat(claims.getString("user_id")).isEqualTo(alpha.allowed().folioId());
    // the impersonation client issues lightweight tokens too (LightweightTokensTest): what FOLIO's mappers mark
    assertThat(claims.fieldNames()).doesNotContain("preferred_username", "email", "realm_access");
  }

  @Test
  void loggedOutUserIsRejected() {
    var alpha = platform.alpha();
    var login = platform.tokens().login(alpha, alpha.allowed());
    platform.tokens().logout(alpha, login);

    get("beta", login.getString("access_token"), "/items/32").statusCode(401);
    platform.module().verify(0, getRequestedFor(urlEqualTo("/items/32")));
  }
}
