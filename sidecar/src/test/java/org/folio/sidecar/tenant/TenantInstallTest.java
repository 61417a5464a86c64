package org.folio.sidecar.tenant;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Item 1 of the drop-in list: mgr-tenant-entitlements calls the module's tenant install ({@code _tenant})
 * while it entitles a tenant, so that call must reach the module before the tenant is entitled; every other
 * endpoint still refuses the tenant.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class TenantInstallTest {

  private static final String NEW_TENANT = "new_tenant_1";

  private final TestPlatform platform = TestPlatform.get();

  @BeforeEach
  void resetModule() {
    platform.resetModule();
  }

  @Test
  void tenantInstallOfATenantNotYetEntitledReachesTheModule() {
    given().header("x-okapi-tenant", NEW_TENANT).contentType("application/json")
      .body("{\"module_to\":\"mod-items-1.0.0\"}").post("/_/tenant")
      .then().statusCode(200);

    platform.module().verify(1, postRequestedFor(urlEqualTo("/_/tenant"))
      .withHeader("x-okapi-tenant", com.github.tomakehurst.wiremock.client.WireMock.equalTo(NEW_TENANT)));
  }

  @Test
  void otherEndpointsStillRefuseATenantNotEntitled() {
    given().header("x-okapi-tenant", NEW_TENANT).get("/public/info")
      .then().statusCode(400).body("errors[0].code", equalTo("tenant_not_enabled"))
      .body("errors[0].message", equalTo("Application is not enabled for tenant: " + NEW_TENANT));

    platform.module().verify(0, getRequestedFor(urlEqualTo("/public/info")));
  }
}
