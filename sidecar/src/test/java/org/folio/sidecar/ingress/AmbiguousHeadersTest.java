package org.folio.sidecar.ingress;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import java.util.function.UnaryOperator;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.Test;

/**
 * Item 10: a second copy of a header the sidecar checks would let the check read one value while the module
 * acts on the other; such requests are 400 and reach nobody.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class AmbiguousHeadersTest {

  private final TestPlatform platform = TestPlatform.get();

  @Test
  void duplicatedSecurityHeadersAre400AndReachNoModule() {
    platform.resetModule();
    var alpha = platform.alpha();
    var token = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
    var other = platform.tokens().login(alpha, alpha.denied()).getString("access_token");
    UnaryOperator<RequestSpecification> twoTenants = spec -> spec.header("x-okapi-tenant", "alpha")
      .header("x-okapi-tenant", "beta").header("x-okapi-token", token);
    UnaryOperator<RequestSpecification> twoAuthorizations = spec -> spec.header("x-okapi-tenant", "alpha")
      .header("Authorization", "Bearer " + token).header("Authorization", "Bearer " + other);
    UnaryOperator<RequestSpecification> twoTokens = spec -> spec.header("x-okapi-tenant", "alpha")
      .header("x-okapi-token", token).header("x-okapi-token", other);

    for (var request : java.util.List.of(twoTenants, twoAuthorizations, twoTokens)) {
      for (var path : new String[]{"/items/1", "/public/info", "/users/1"}) {
        request.apply(given()).get(path).then().statusCode(400)
          .body("errors[0].code", equalTo("service_error"))
          .body("errors[0].type", equalTo("BadRequestException"));
      }
    }

    platform.module().verify(0, anyRequestedFor(urlEqualTo("/items/1")));
    platform.module().verify(0, anyRequestedFor(urlEqualTo("/public/info")));
    platform.others().verify(0, anyRequestedFor(urlEqualTo("/users/1")));
  }
}
