package org.folio.sidecar.authz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.folio.sidecar.support.SidecarCalls.awaitKeycloakDecides;
import static org.folio.sidecar.support.SidecarCalls.get;
import static org.folio.sidecar.support.SidecarCalls.umaCalls;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.Test;

/**
 * SIDECAR_WILDCARD_PERMISSION_TOKEN_ONLY unset (off, as upstream master): {@code permissionsRequired: ["*"]} is a
 * permission like any other, and Keycloak decides {@code /whoami#GET}.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class WildcardPermissionDefaultTest {

  private final TestPlatform platform = TestPlatform.get();

  @Test
  void keycloakDecidesTheWildcardEndpointAsUpstreamMaster() {
    awaitKeycloakDecides();
    var alpha = platform.alpha();
    var allowed = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
    var denied = platform.tokens().login(alpha, alpha.denied()).getString("access_token");
    int before = umaCalls();

    get("alpha", allowed, "/whoami").statusCode(200);
    get("alpha", denied, "/whoami").statusCode(403);

    assertThat(umaCalls() - before).isEqualTo(2);
  }
}
