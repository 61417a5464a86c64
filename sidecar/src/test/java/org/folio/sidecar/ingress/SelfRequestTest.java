package org.folio.sidecar.ingress;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.net.Inet4Address;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Optional;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.folio.sidecar.testkit.Tokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Item 9: the self-request marker (which the module receives on every request, so its logs may hold it) skips
 * the tenant and permission checks only for the pod itself, and never skips verifying a token it comes with.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class SelfRequestTest {

  private static final String SIGNATURE = "x-okapi-sidecar-signature";

  private final TestPlatform platform = TestPlatform.get();

  @BeforeEach
  void resetModule() {
    platform.resetModule();
  }

  /** The marker as the module learns it: from a request its sidecar forwarded. */
  private String marker() {
    given().header("x-okapi-tenant", "alpha").get("/public/info").then().statusCode(200);
    var marker = platform.module().findAll(getRequestedFor(urlEqualTo("/public/info"))).get(0).getHeader(SIGNATURE);
    platform.resetModule();
    return marker;
  }

  @Test
  void markerFromThePodSkipsTenantAndPermissionChecks() {
    var marker = marker();

    given().header(SIGNATURE, marker).get("/items/5").then().statusCode(200);

    platform.module().verify(1, getRequestedFor(urlEqualTo("/items/5")));
  }

  @Test
  void markerWithABadTokenIs401() {
    var marker = marker();
    var alpha = platform.alpha();
    var token = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
    var tampered = Tokens.withPayload(token,
      Tokens.claims(token).put("user_id", "00000000-0000-0000-0000-000000000009"));

    for (var bad : new String[]{tampered, "not-a-jwt"}) {
      given().header(SIGNATURE, marker).header("x-okapi-token", bad).get("/items/5")
        .then().statusCode(401).body("errors[0].code", equalTo("authorization_error"));
    }
    platform.module().verify(0, getRequestedFor(urlEqualTo("/items/5")));
  }

  @Test
  void markerFromAnotherAddressIsIgnored() throws SocketException {
    var marker = marker();
    var address = nonLoopbackAddress();
    assumeThat(address).as("this machine has a non-loopback IPv4 address").isPresent();

    given().baseUri("http://" + address.get()).port(RestAssured.port)
      .header(SIGNATURE, marker).header("x-okapi-tenant", "alpha").get("/items/5")
      .then().statusCode(401);
    given().baseUri("http://" + address.get()).port(RestAssured.port)
      .header(SIGNATURE, marker).get("/items/5")
      .then().statusCode(400);

    platform.module().verify(0, getRequestedFor(urlEqualTo("/items/5")));
  }

  private static Optional<String> nonLoopbackAddress() throws SocketException {
    return NetworkInterface.networkInterfaces()
      .filter(network -> {
        try {
          return network.isUp() && !network.isLoopback();
        } catch (SocketException e) {
          return false;
        }
      })
      .flatMap(NetworkInterface::inetAddresses)
      .filter(address -> address instanceof Inet4Address && !address.isLoopbackAddress())
      .map(address -> address.getHostAddress())
      .findFirst();
  }
}
