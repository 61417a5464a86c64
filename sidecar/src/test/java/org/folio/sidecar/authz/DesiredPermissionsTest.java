package org.folio.sidecar.authz;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.client.WireMock;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** x-okapi-permissions: what the verified user holds of an endpoint's desired permissions, looked up rarely. */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class DesiredPermissionsTest {

  private static final String HELD = "[\"circulation.loans.item.get\",\"items.loans.view\"]";
  private final TestPlatform platform = TestPlatform.get();

  @BeforeEach
  void reset() {
    platform.resetModule();
  }

  @Test
  void hundredCallsGetTheUsersPermissionsFromOneLookupAndSpoofsNeverPass() {
    var alpha = platform.alpha();
    var userId = alpha.allowed().folioId();
    var lookups = urlPathEqualTo("/users-keycloak/users/" + userId + "/permissions");
    platform.managers().stubFor(WireMock.get(lookups).willReturn(WireMock.okJson("{\"permissions\":" + HELD + "}")));
    int before = platform.managers().findAll(getRequestedFor(lookups)).size();
    var token = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");

    for (int i = 0; i < 100; i++) {
      given().header("x-okapi-tenant", "alpha").header("x-okapi-token", token)
        .header("x-okapi-permissions", "[\"everything\"]").get("/items/5/loans").then().statusCode(200);
    }

    platform.module().verify(100, getRequestedFor(urlEqualTo("/items/5/loans"))
      .withHeader("x-okapi-permissions", WireMock.equalTo(HELD)));
    var asked = platform.managers().findAll(getRequestedFor(lookups));
    assertThat(asked.size() - before).isEqualTo(1);
    var lookup = asked.get(asked.size() - 1);
    assertThat(lookup.queryParameter("desiredPermissions").values()).containsExactly("circulation.loans.*",
      "items.loans.view");
    assertThat(lookup.getHeader("x-okapi-tenant")).isEqualTo("alpha");
  }

  @Test
  void egressToATargetDesiringPermissionsCarriesTheModulesMatchingOnes() {
    given().header("x-okapi-tenant", "alpha").get("/users/9/desired").then().statusCode(200);

    platform.others().verify(1, getRequestedFor(urlEqualTo("/users/9/desired"))
      .withHeader("x-okapi-permissions", WireMock.equalTo("[\"users.item.get\"]")));
  }
}
