package org.folio.sidecar.egress;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.client.WireMock;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.HashSet;
import org.folio.sidecar.support.CountingHop.Kind;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.support.TestPlatform;
import org.folio.sidecar.support.Tokens;
import org.junit.jupiter.api.Test;

/** Service tokens are renewed ahead of expiry: callers never wait for one and never carry an expired one. */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class ServiceTokenRefreshTest {

  private final TestPlatform platform = TestPlatform.get();

  @Test
  void tokensAreRenewedAheadAndNeverSentExpired() {
    // Given a tenant whose tokens live 6 s (renewed after 70 % of that)
    var tenant = platform.shortLivedTenant();
    int before = platform.keycloakHop().count(Kind.TOKEN);
    long end = System.currentTimeMillis() + 2 * TestPlatform.SHORT_LIFESPAN_SECONDS * 1000 + 1000;

    // When the module calls out steadily for two lifespans and more
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
      given().header("x-okapi-tenant", tenant).get("/users/refresh").then().statusCode(200);
      return System.currentTimeMillis() > end;
    });

    // Then every call carried a live token, and tokens were renewed about once per 0.7 lifespan, not per call
    var sent = platform.others().findAll(getRequestedFor(urlEqualTo("/users/refresh"))
      .withHeader("x-okapi-tenant", WireMock.equalTo(tenant)));
    var distinct = new HashSet<String>();
    for (var request : sent) {
      var token = request.getHeader("x-system-token");
      distinct.add(token);
      long receivedAt = request.getLoggedDate().getTime() / 1000;
      assertThat(Tokens.claims(token).getLong("exp")).isGreaterThan(receivedAt);
    }
    int requests = platform.keycloakHop().count(Kind.TOKEN) - before;
    System.out.printf("%d calls over %d s used %d tokens; %d token requests%n", sent.size(),
      2 * TestPlatform.SHORT_LIFESPAN_SECONDS + 1, distinct.size(), requests);
    assertThat(sent.size()).isGreaterThan(50);
    assertThat(requests).isBetween(3, 5);
    // the last background renewal may land after the last call
    assertThat(distinct.size()).isBetween(requests - 1, requests);
  }
}
