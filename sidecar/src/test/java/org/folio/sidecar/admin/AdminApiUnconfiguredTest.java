package org.folio.sidecar.admin;

import static io.restassured.RestAssured.given;
import static org.folio.sidecar.support.SidecarCalls.admin;
import static org.folio.sidecar.support.SidecarCalls.managementBase;

import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.folio.sidecar.support.SidecarCalls;
import org.folio.sidecar.support.SidecarTestResource;
import org.junit.jupiter.api.Test;

/** No admin credential in the secret store: the admin API refuses everything, health and metrics keep working. */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true, initArgs = {
  @ResourceArg(name = "sidecar.admin.secret-key", value = "folio_no_such_admin_secret")})
class AdminApiUnconfiguredTest {

  @Test
  void refusesEveryCallButHealthAndMetricsWork() {
    given().baseUri(managementBase()).port(-1).get("/admin/cache").then().statusCode(401);
    // even the credential that would be right elsewhere
    admin().get("/admin/cache").then().statusCode(403);
    admin().post("/admin/cache/flush?all=true").then().statusCode(403);
    admin().post("/admin/healthcheck/fail").then().statusCode(403);
    given().get("/admin/health/live").then().statusCode(200);
    SidecarCalls.metrics();
  }
}
