package org.folio.sidecar.forward;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.restassured.RestAssured.given;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Item 3, end to end: what the module (ingress) and a required module (egress) receive as x-okapi-request-id. */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class RequestIdTest {

  private final TestPlatform platform = TestPlatform.get();

  @BeforeEach
  void resetModule() {
    platform.resetModule();
  }

  @Test
  void ingressWithoutAnIdGetsOneInOkapisFormat() {
    given().header("x-okapi-tenant", "alpha").get("/public/info").then().statusCode(200);
    given().header("x-okapi-tenant", "alpha").post("/_/tenant").then().statusCode(200);

    platform.module().verify(1, getRequestedFor(urlEqualTo("/public/info"))
      .withHeader("x-okapi-request-id", matching("\\d{6}/public")));
    platform.module().verify(1, postRequestedFor(urlEqualTo("/_/tenant"))
      .withHeader("x-okapi-request-id", matching("\\d{6}/tenant")));
  }

  @Test
  void egressAppendsItsHopToTheModulesId() {
    given().header("x-okapi-tenant", "alpha").header("x-okapi-request-id", "482913/items")
      .get("/users/2").then().statusCode(200);

    platform.others().verify(1, getRequestedFor(urlEqualTo("/users/2"))
      .withHeader("x-okapi-request-id", matching("482913/items;\\d{6}/users")));
  }
}
