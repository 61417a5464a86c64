package org.folio.sidecar.forward;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.regex.Pattern;
import org.folio.sidecar.support.SidecarCalls;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What an operator's alerts read from the scrape: ingress outcomes, added latency, egress faults, tokens. */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class RequestMetricsTest {

  private static final Pattern LABELS = Pattern.compile("(\\w+)=\"");

  private final TestPlatform platform = TestPlatform.get();

  @BeforeEach
  void resetModule() {
    platform.resetModule();
  }

  @Test
  void seriesAlertsReadExistAtZeroBeforeAnythingHappens() {
    var scrape = scrape();

    // the sidecar's own 5xx by kind, and the gateway's egress faults: present whether or not one ever happened
    for (var status : List.of("502", "503", "504")) {
      assertThat(scrape).containsPattern(
        "sidecar_requests_total\\{direction=\"ingress\",outcome=\"failed\",status=\"" + status + "\"} \\d");
    }
    assertThat(scrape).contains(
      "sidecar_egress_requests_seconds_count{fault=\"target\",module=\"gateway\",outcome=\"connect_error\"}");
    assertThat(scrape).contains("sidecar_events_total{kind=\"entitlement\",outcome=\"malformed\"}");
    assertThat(scrape).contains("sidecar_readiness_transitions_total{to=\"unready\"}");
  }

  @Test
  void allowedAndDeniedCountedByOutcomeWithTheAddedLatencyInFixedBuckets() {
    var token = platform.tokens().login(platform.alpha(), platform.alpha().allowed()).getString("access_token");
    var denied = platform.tokens().login(platform.alpha(), platform.alpha().denied()).getString("access_token");
    double allowedBefore = value("sidecar_requests_total{direction=\"ingress\",outcome=\"forwarded\",status=\"200\"}");
    double deniedBefore = value("sidecar_requests_total{direction=\"ingress\",outcome=\"rejected\",status=\"403\"}");
    double timedBefore = value("sidecar_requests_added_seconds_count{direction=\"ingress\"}");

    given().header("x-okapi-tenant", "alpha").header("x-okapi-token", token).get("/items/1").then().statusCode(200);
    given().header("x-okapi-tenant", "alpha").header("x-okapi-token", denied).get("/items/1").then().statusCode(403);

    assertThat(value("sidecar_requests_total{direction=\"ingress\",outcome=\"forwarded\",status=\"200\"}"))
      .isEqualTo(allowedBefore + 1);
    assertThat(value("sidecar_requests_total{direction=\"ingress\",outcome=\"rejected\",status=\"403\"}"))
      .isEqualTo(deniedBefore + 1);
    assertThat(value("sidecar_requests_added_seconds_count{direction=\"ingress\"}")).isEqualTo(timedBefore + 2);
    // fixed buckets an alert can compare over time: the 50 ms bound is there
    assertThat(scrape()).contains("sidecar_requests_added_seconds_bucket{direction=\"ingress\",le=\"0.05\"}");
  }

  @Test
  void egressForATenantWithoutSecretIsTheSidecarsFaultNotTheTargets() {
    var series = "sidecar_egress_requests_seconds_count{fault=\"sidecar\",module=\"mod-users\",outcome=\"secret_error\"}";
    var target = "sidecar_egress_requests_seconds_count{fault=\"target\",module=\"mod-users\",outcome=\"connect_error\"}";
    given().header("x-okapi-tenant", "alpha").get("/users/1").then().statusCode(200);
    double before = value(series);
    double targetBefore = value(target);

    // a tenant being installed (egress accepts it) whose module-access secret the store does not hold
    TestPlatform.get().module().stubFor(com.github.tomakehurst.wiremock.client.WireMock.post("/_/tenant")
      .willReturn(com.github.tomakehurst.wiremock.client.WireMock.aResponse().withStatus(204)));
    given().header("x-okapi-tenant", "nosecret").contentType("application/json").body("{}").post("/_/tenant")
      .then().statusCode(204);
    given().header("x-okapi-tenant", "nosecret").get("/users/1").then().statusCode(500);

    assertThat(value(series)).isEqualTo(before + 1);
    assertThat(value(target)).isEqualTo(targetBefore);
    // the failed acquisition is counted too, not only the ones that succeed
    assertThat(value("sidecar_tokens_requests_total{kind=\"acquire\",outcome=\"error\",tenant=\"nosecret\"}"))
      .isGreaterThanOrEqualTo(1);
  }

  @Test
  void noSeriesCarriesALabelACallerControls() {
    given().header("x-okapi-tenant", "alpha").header("x-okapi-user-id", "u1").get("/items/1");
    var labels = LABELS.matcher(scrape()).results().map(match -> match.group(1)).distinct().toList();
    assertThat(labels).doesNotContain("user", "user_id", "token", "path", "uri", "request_id", "session");
  }

  private static String scrape() {
    return SidecarCalls.metrics().extract().asString();
  }

  private static double value(String series) {
    var matcher = Pattern.compile("(?m)^" + Pattern.quote(series) + " ([0-9.E+-]+)$").matcher(scrape());
    return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0;
  }
}
