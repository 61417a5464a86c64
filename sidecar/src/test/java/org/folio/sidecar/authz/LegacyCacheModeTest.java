package org.folio.sidecar.authz;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.folio.sidecar.support.SidecarCalls.get;
import static org.folio.sidecar.support.SidecarCalls.umaCalls;

import com.github.tomakehurst.wiremock.client.WireMock;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.regex.Pattern;
import org.folio.sidecar.support.SidecarCalls;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.Test;

/** Legacy mode reproduces upstream v3.0.18's cache, bug included: the baseline the optimized cache is measured against. */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true, initArgs = @ResourceArg(name = "sidecar.authz-cache.mode", value = "legacy"))
class LegacyCacheModeTest {

  private final TestPlatform platform = TestPlatform.get();

  @Test
  void everyRefreshCostsAKeycloakCall() throws Exception {
    var alpha = platform.alpha();
    var login = platform.tokens().login(alpha, alpha.allowed());
    get("alpha", login.getString("access_token"), "/items/3").statusCode(200);
    get("alpha", login.getString("access_token"), "/items/3").statusCode(200);
    int before = umaCalls();

    Thread.sleep(1100); // a refresh in a later second carries a later exp
    var refreshed = platform.tokens().refresh(alpha, login).getString("access_token");
    get("alpha", refreshed, "/items/3").statusCode(200);

    assertThat(umaCalls() - before).isEqualTo(1);
  }

  @Test
  void everyRequestToAnEndpointDesiringPermissionsAsksModUsersKeycloak() {
    var alpha = platform.alpha();
    var lookups = urlPathEqualTo("/users-keycloak/users/" + alpha.allowed().folioId() + "/permissions");
    platform.managers().stubFor(WireMock.get(lookups).willReturn(WireMock.okJson("{\"permissions\":[]}")));
    int before = platform.managers().findAll(getRequestedFor(lookups)).size();
    var token = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");

    for (int i = 0; i < 5; i++) {
      get("alpha", token, "/items/5/loans").statusCode(200);
    }

    // upstream v3.0.18 and v4.0.3 cache no desired permissions: the cost the optimized cache removes
    assertThat(platform.managers().findAll(getRequestedFor(lookups)).size() - before).isEqualTo(5);
  }

  @Test
  void serviceTokensOfSixtyTenantsThrashTheCache() throws Exception {
    int calls = SidecarCalls.serviceTokensOfSixtyTenants();

    assertThat(calls).isGreaterThanOrEqualTo(3 * TestPlatform.SERVICE_TENANTS * 2);
    var metrics = SidecarCalls.metrics().extract().asString();
    var evictions = Pattern.compile("(?m)^cache_evictions_count\\{.*cache=\"sidecar.authz.decisions\".*\\} ([0-9.E]+)")
      .matcher(metrics);
    double evicted = 0;
    while (evictions.find()) {
      evicted += Double.parseDouble(evictions.group(1));
    }
    assertThat(evicted).isPositive();
    System.out.printf("legacy mode, 60 tenants x 4 service tokens x 2 permissions: %d UMA calls, %.0f evictions%n",
      calls, evicted);
  }
}
