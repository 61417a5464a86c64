package org.folio.sidecar.support;

import org.folio.sidecar.testkit.CountingHop;
import org.folio.sidecar.testkit.TestPlatform;

import static io.restassured.RestAssured.given;

import io.quarkus.test.common.http.TestHTTPResourceManager;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import org.folio.sidecar.testkit.CountingHop.Kind;

/** Calls through the sidecar under test, and scenarios shared by the optimized and legacy cache tests. */
public final class SidecarCalls {

  private SidecarCalls() {
  }

  public static ValidatableResponse get(String tenant, String token, String path) {
    return given().header("x-okapi-tenant", tenant).header("x-okapi-token", token).get(path).then();
  }

  /**
   * The metrics scrape, from the management interface (its own port, apart from module traffic). The port is
   * read per call: each application start of the test run may have another.
   */
  public static ValidatableResponse metrics() {
    // the management URI ends with its root path, /q
    return given().baseUri(TestHTTPResourceManager.getManagementUri()).port(-1).get("/metrics").then().statusCode(200);
  }

  /**
   * Waits until Keycloak answers a first decision in time: on a cold, busy Keycloak it may take longer than
   * KC_REQUEST_TIMEOUT (503). For tests that count calls, before they start counting.
   */
  public static void awaitKeycloakDecides() {
    var platform = TestPlatform.get();
    var alpha = platform.alpha();
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(120))
      .pollInterval(java.time.Duration.ofSeconds(1))
      .until(() -> given().header("x-okapi-tenant", "alpha")
        .header("x-okapi-token", platform.tokens().login(alpha, alpha.allowed()).getString("access_token"))
        .get("/items/1").statusCode() == 200);
  }

  /**
   * A request to the admin API on the management interface, with the test platform's admin credential. The
   * management URI ends with its root path, /q, which the admin API does not use.
   */
  public static RequestSpecification admin() {
    return given().baseUri(managementBase()).port(-1).header("authorization", "Bearer " + TestPlatform.ADMIN_TOKEN);
  }

  /** The management interface's scheme, host and port. */
  public static String managementBase() {
    var uri = java.net.URI.create(TestHTTPResourceManager.getManagementUri());
    return uri.getScheme() + "://" + uri.getAuthority();
  }

  /** {@code sidecar_keycloak_decisions_seconds_count} of one outcome (permit, deny, timeout, refused, ...). */
  public static double keycloakDecisions(String outcome) {
    var scrape = metrics().extract().asString();
    var matcher = java.util.regex.Pattern.compile("sidecar_keycloak_decisions_seconds_count\\{outcome=\""
      + outcome + "\"} ([0-9.E]+)").matcher(scrape);
    return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0;
  }

  /**
   * Drops every cached decision: decisions are kept per user, so a test that counts Keycloak calls from a miss
   * cannot count on a fresh login for one.
   */
  public static void forgetDecisions() {
    admin().post("/admin/cache/flush?all=true").then().statusCode(200);
  }

  public static int umaCalls() {
    return TestPlatform.get().keycloakHop().count(Kind.UMA);
  }

  /**
   * Service tokens of 60 tenants, each refreshed 3 times (4 generations, at least a second apart so each has
   * its own exp), each used for 2 permissions. Returns the number of UMA calls the sidecar made.
   */
  public static int serviceTokensOfSixtyTenants() throws InterruptedException {
    var platform = TestPlatform.get();
    List<String> tenants = platform.serviceTenants();
    int before = umaCalls();
    for (int generation = 0; generation < 4; generation++) {
      long started = System.currentTimeMillis();
      for (var tenant : tenants) {
        var token = platform.serviceToken(tenant);
        get(tenant, token, "/items/1").statusCode(200);
        get(tenant, token, "/items").statusCode(200);
      }
      long elapsed = System.currentTimeMillis() - started;
      if (elapsed < 1100) {
        // exp has one-second resolution: the next generation must differ from this one
        Thread.sleep(1100 - elapsed);
      }
    }
    return umaCalls() - before;
  }
}
