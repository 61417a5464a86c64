package org.folio.sidecar.egress;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import org.folio.sidecar.support.Waits;
import com.github.tomakehurst.wiremock.client.WireMock;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.support.TestClocks;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.Test;

/**
 * Service tokens are renewed ahead of expiry, against the real Keycloak, with the sidecar's clock moved forward
 * instead of waiting: callers never wait for a renewal, and a token past its usable life is never sent.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class ServiceTokenRefreshTest {

  private final TestPlatform platform = TestPlatform.get();

  private String sentToken(String tenant, String call) {
    given().header("x-okapi-tenant", tenant).get("/users/" + call).then().statusCode(200);
    return platform.others().findAll(getRequestedFor(urlEqualTo("/users/" + call))
      .withHeader("x-okapi-tenant", WireMock.equalTo(tenant))).get(0).getHeader("x-system-token");
  }

  @Test
  void tokensAreRenewedAheadAndNeverSentPastTheirLife() {
    platform.resetModule();
    // Given a tenant whose tokens live 6 s: renewed after 70 % (4.2 s), never handed out after 5.4 s
    var tenant = platform.shortLivedTenant();
    var first = sentToken(tenant, "r1");
    int before = platform.keycloakHop().tokenRequests(tenant::equals);

    // When the token is 4.3 s old, Then the caller still gets it at once, and one renewal runs behind it
    TestClocks.advance(Duration.ofMillis(4300));
    assertThat(sentToken(tenant, "r2")).isEqualTo(first);
    await().atMost(Waits.STATE).until(() -> platform.keycloakHop().tokenRequests(tenant::equals) == before + 1);
    var renewed = sentToken(tenant, "r3");
    assertThat(renewed).isNotEqualTo(first);

    // When the renewed one outlives its usable life unrenewed, Then it is not sent: a new one is fetched first
    TestClocks.advance(Duration.ofMillis(5500));
    var next = sentToken(tenant, "r4");
    assertThat(next).isNotEqualTo(renewed).isNotEqualTo(first);
    assertThat(platform.keycloakHop().tokenRequests(tenant::equals) - before).isBetween(2, 3);
  }
}
