package org.folio.sidecar.k8s;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

import org.folio.sidecar.support.Waits;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.folio.sidecar.support.Manifests;
import org.folio.sidecar.support.SidecarTestResource;
import org.junit.jupiter.api.Test;

/** The probes of the Deployment answer 200 on a running sidecar. */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class ProbesTest {

  @Test
  void probePathsOfTheDeploymentAnswer200() {
    for (var probe : new String[]{"readinessProbe", "livenessProbe", "startupProbe"}) {
      var path = Manifests.probePath(probe);
      await().atMost(Waits.STATE).untilAsserted(() -> given().get(path).then().statusCode(200));
    }
  }
}
