package org.folio.sidecar.error;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.function.UnaryOperator;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.Test;

/**
 * Item 8: for each case upstream answers, the same status and a body with exactly upstream's members and values
 * ({@code errors[{type, code, message}]}, {@code total_records}); no {@code parameters}, no cause.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class ErrorBodyTest {

  private final TestPlatform platform = TestPlatform.get();

  private record Case(String name, UnaryOperator<RequestSpecification> request, String method, String path, int status,
    String type, String code, String message) {
  }

  @Test
  void errorBodiesAreUpstreamsMemberForMember() {
    platform.resetModule();
    var alpha = platform.alpha();
    var allowed = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
    var denied = platform.tokens().login(alpha, alpha.denied()).getString("access_token");
    var cases = new Case[]{
      new Case("no token", spec -> spec.header("x-okapi-tenant", "alpha"), "GET", "/items/1",
        401, "UnauthorizedException", "authorization_error", "Unauthorized"),
      new Case("garbage token", spec -> spec.header("x-okapi-tenant", "alpha").header("x-okapi-token", "a.b.c"),
        "GET", "/items/1", 401, "UnauthorizedException", "authorization_error", "Unauthorized"),
      new Case("token of another tenant",
        spec -> spec.header("x-okapi-tenant", "beta").header("x-okapi-token", allowed),
        "GET", "/items/1", 401, "UnauthorizedException", "authorization_error", "Unauthorized"),
      new Case("permission missing", spec -> spec.header("x-okapi-tenant", "alpha").header("x-okapi-token", denied),
        "GET", "/items/1", 403, "ForbiddenException", "authorization_error", "Access Denied"),
      new Case("tokens differ", spec -> spec.header("x-okapi-tenant", "alpha").header("x-okapi-token", allowed)
        .header("Authorization", "Bearer " + denied), "GET", "/items/1",
        400, "BadRequestException", "service_error", "X-Okapi-Token is not equal to Authorization token"),
      new Case("tenant not entitled", spec -> spec.header("x-okapi-tenant", "stranger"), "GET", "/public/info",
        400, "TenantNotEnabledException", "tenant_not_enabled", "Application is not enabled for tenant: stranger"),
      new Case("no route", spec -> spec.header("x-okapi-tenant", "alpha"), "GET", "/nothing/here",
        404, "NotFoundException", "route_not_found_error", "Route is not found [method: GET, path: /nothing/here]"),
    };

    for (var aCase : cases) {
      var body = new JsonObject(aCase.request().apply(given()).request(aCase.method(), aCase.path())
        .then().statusCode(aCase.status()).contentType("application/json").extract().asString());
      var expected = new JsonObject().put("errors", new JsonArray().add(new JsonObject()
        .put("type", aCase.type()).put("code", aCase.code()).put("message", aCase.message()))).put("total_records", 1);
      assertThat(body).as(aCase.name()).isEqualTo(expected);
    }
  }

  @Test
  void theCauseIsInTheBodyOnlyWhenAskedFor() {
    var error = SidecarError.moduleUnavailable("connection refused by 127.0.0.1:9");

    assertThat(ErrorResponder.body(error, false).getJsonArray("errors").getJsonObject(0).fieldNames())
      .containsExactlyInAnyOrder("type", "code", "message");
    assertThat(ErrorResponder.body(error, true).getJsonArray("errors").getJsonObject(0)
      .getJsonArray("parameters").getJsonObject(0))
      .isEqualTo(new JsonObject().put("key", "cause").put("value", "connection refused by 127.0.0.1:9"));
  }
}
