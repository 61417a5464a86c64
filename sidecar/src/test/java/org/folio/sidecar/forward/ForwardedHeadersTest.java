package org.folio.sidecar.forward;

import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.matchesPattern;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Item 12: User-Agent and Priority never reach a module (mod-circulation's install against mod-pubsub, and
 * CVE-2025-31650 in Tomcat-based modules); every answer carries upstream v4's x-response-time.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class ForwardedHeadersTest {

  private final TestPlatform platform = TestPlatform.get();

  @BeforeEach
  void resetModule() {
    platform.resetModule();
  }

  @Test
  void userAgentAndPriorityAreDroppedOnIngressAndEgress() {
    given().header("x-okapi-tenant", "alpha").header("User-Agent", "mgr-tenant-entitlements/3.0")
      .header("Priority", "u=0, i").header("x-custom", "kept").get("/public/info").then().statusCode(200);
    given().header("x-okapi-tenant", "alpha").header("User-Agent", "mod-items/1.0")
      .header("Priority", "u=7").get("/users/3").then().statusCode(200);

    platform.module().verify(1, getRequestedFor(urlEqualTo("/public/info"))
      .withHeader("user-agent", absent()).withHeader("priority", absent()).withHeader("x-custom", equalTo("kept")));
    platform.others().verify(1, getRequestedFor(urlEqualTo("/users/3"))
      .withHeader("user-agent", absent()).withHeader("priority", absent()));
  }

  @Test
  void answersCarryTheResponseTime() {
    given().header("x-okapi-tenant", "alpha").get("/public/info").then().statusCode(200)
      .header("x-response-time", matchesPattern("\\d+ms"));
    given().header("x-okapi-tenant", "alpha").get("/no/such/route").then().statusCode(404)
      .header("x-response-time", matchesPattern("\\d+ms"));
  }
}
