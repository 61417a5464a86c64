package org.folio.sidecar.ingress;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.folio.sidecar.support.LogCapture;
import org.folio.sidecar.support.SidecarTestResource;
import org.junit.jupiter.api.Test;

/**
 * SC_LOG_LEVEL=TRACE shows the sidecar's TRACE lines: Quarkus drops lines below a category's build-time min-level
 * (DEBUG unless set) whatever the run-time level says, so the build sets it to TRACE (as upstream 26c564f).
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true, initArgs = {
  @ResourceArg(name = "SC_LOG_LEVEL", value = "TRACE")})
class TraceLevelTest {

  @Test
  void aTraceLineOfTheSidecarAppearsAtLevelTrace() {
    try (var capture = LogCapture.install()) {
      given().header("x-okapi-tenant", "alpha").header("x-okapi-request-id", "777777").get("/public/info").then()
        .statusCode(200);

      assertThat(capture.lines()).anyMatch(line -> line.startsWith("org.folio.sidecar.SidecarRouter Routing [method: "
        + "GET, path: /public/info, tenant: alpha] as INGRESS, request id 777777;"));
    }
  }
}
