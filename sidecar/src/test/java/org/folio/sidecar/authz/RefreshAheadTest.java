package org.folio.sidecar.authz;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.folio.sidecar.support.SidecarCalls.get;
import static org.folio.sidecar.support.SidecarCalls.umaCalls;
import static org.hamcrest.Matchers.containsString;

import org.folio.sidecar.support.Waits;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import org.folio.sidecar.support.SidecarCalls;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.support.TestClocks;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Grants in use are re-checked before they expire, and keep serving while Keycloak is away. Short TTLs here, yet
 * far above the real time a busy machine may spend between two steps: the tests move the sidecar's clock instead
 * (within the login tokens' 300-s lifetime, which the moved clock also consumes).
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true, initArgs = {
  @ResourceArg(name = "sidecar.authz-cache.allow-ttl", value = "60s"),
  @ResourceArg(name = "sidecar.authz-cache.refresh-after", value = "20s"),
  @ResourceArg(name = "sidecar.authz-cache.max-staleness", value = "1m")})
class RefreshAheadTest {

  private final TestPlatform platform = TestPlatform.get();

  @BeforeEach
  void freshDecisions() {
    SidecarCalls.forgetDecisions();
  }

  private String loginAllowed() {
    return platform.tokens().login(platform.alpha(), platform.alpha().allowed()).getString("access_token");
  }

  @Test
  void grantInUseIsRecheckedInTheBackground() {
    // Given a cached grant older than refresh-after
    var token = loginAllowed();
    int before = umaCalls();
    get("alpha", token, "/items/12").statusCode(200);
    TestClocks.advance(Duration.ofSeconds(25));

    // When it is used again
    get("alpha", token, "/items/12").statusCode(200);

    // Then Keycloak is asked once more, behind the request, and the entry is fresh again
    await().atMost(Waits.STATE).untilAsserted(() -> assertThat(umaCalls() - before).isEqualTo(2));
    get("alpha", token, "/items/12").statusCode(200);
    assertThat(umaCalls() - before).isEqualTo(2);
  }

  @Test
  void expiredGrantKeepsServingWhileKeycloakIsUnreachable() {
    // Given a grant past its TTL, not refreshed meanwhile
    var token = loginAllowed();
    get("alpha", token, "/items/13").statusCode(200);
    TestClocks.advance(Duration.ofSeconds(65));

    platform.keycloakHop().cut();
    try {
      // When Keycloak cannot be asked, Then the grant still serves
      get("alpha", token, "/items/13").statusCode(200);
    } finally {
      platform.keycloakHop().restore();
    }
    SidecarCalls.metrics().body(containsString("sidecar_authz_decisions_stale_served_total 1.0"));
  }
}
