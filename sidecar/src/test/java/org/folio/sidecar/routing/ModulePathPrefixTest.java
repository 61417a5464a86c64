package org.folio.sidecar.routing;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.folio.sidecar.config.SidecarConfig.ModulePathPrefix.Strategy;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SIDECAR_MODULE_PATH_PREFIX_ENABLED=true (upstream's PROXY): {@code /mod-items/items/1} is the module's
 * {@code /items/{id}}, the module receives the prefixed path, and calls to other modules lose the prefix.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true, initArgs = @ResourceArg(name = "sidecar.module-path-prefix.enabled", value = "true"))
class ModulePathPrefixTest {

  private final TestPlatform platform = TestPlatform.get();

  @BeforeEach
  void reset() {
    platform.resetModule();
  }

  private String token() {
    return platform.tokens().login(platform.alpha(), platform.alpha().allowed()).getString("access_token");
  }

  @Test
  void prefixedAndBarePathsReachTheModuleWithThePrefix() {
    var token = token();
    given().header("x-okapi-tenant", "alpha").header("x-okapi-token", token).get("/mod-items/items/1?x=1")
      .then().statusCode(200);
    given().header("x-okapi-tenant", "alpha").header("x-okapi-token", token).get("/items/2")
      .then().statusCode(200);

    platform.module().verify(1, getRequestedFor(urlEqualTo("/mod-items/items/1?x=1")));
    platform.module().verify(1, getRequestedFor(urlEqualTo("/mod-items/items/2")));
  }

  @Test
  void callsToOtherModulesLoseThePrefix() {
    given().header("x-okapi-tenant", "alpha").get("/mod-items/users/42").then().statusCode(200);

    platform.others().verify(1, getRequestedFor(urlEqualTo("/users/42")));
  }

  @Test
  void strategiesAsUpstreamButOnWholeSegments() {
    var proxy = new ModulePathPrefix("mod-items", Strategy.PROXY);
    var strip = new ModulePathPrefix("mod-items", Strategy.STRIP);
    var none = new ModulePathPrefix("mod-items", Strategy.NONE);

    assertThat(proxy.routingPath("/mod-items/items/1")).isEqualTo("/items/1");
    assertThat(proxy.toModule("/items/1?a=b")).isEqualTo("/mod-items/items/1?a=b");
    assertThat(strip.toModule("/mod-items/items/1?a=b")).isEqualTo("/items/1?a=b");
    assertThat(strip.toModule("/mod-items?a=b")).isEqualTo("/?a=b");
    assertThat(strip.toOthers("/mod-items/users/1")).isEqualTo("/users/1");
    assertThat(none.toModule("/mod-items/items/1")).isEqualTo("/mod-items/items/1");
    assertThat(none.routingPath("/mod-items/items/1")).isEqualTo("/mod-items/items/1");
    // another module whose name starts with this one's keeps its path
    assertThat(proxy.routingPath("/mod-items-storage/items")).isEqualTo("/mod-items-storage/items");
  }
}
