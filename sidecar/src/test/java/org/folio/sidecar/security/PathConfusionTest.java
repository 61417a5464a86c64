package org.folio.sidecar.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.folio.sidecar.forward.RequestPaths;
import org.folio.sidecar.routing.ModuleDescriptorParser;
import org.folio.sidecar.routing.RoutingTable;
import org.folio.sidecar.testkit.TestModule;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Authorized as one endpoint, served as another (issue 25, item 2): a real Vert.x Web module with a handler for
 * each of the test module's endpoints (and one the descriptor does not declare), and a table of paths with dot
 * segments, encodings and parameters. For every path the sidecar does not refuse, the handler that serves what
 * the sidecar forwards is the endpoint whose permission the sidecar checked.
 */
class PathConfusionTest {

  private static final List<String> PATHS = List.of(
    "/items/1", "/items/1/loans", "/public/info", "/loans", "/items/../loans", "/items/%2e%2e/loans",
    "/items/%2E%2E/loans", "/items/.%2e/loans", "/items/1/../../loans", "/items/..%2floans/loans",
    "/items/1/..;/..;/loans", "/items/..;/public/info", "/items/1;a=b/loans", "/items/%2e%2e/public/info",
    "/items/1/loans/..", "/items/1/loans/%2e%2e", "/downloads/..", "/downloads/%2e%2e", "/downloads/.%2e",
    "/items/./1", "/items/%2e/1", "/it%65ms/1", "/items/1/lo%61ns", "/%6coans", "/items//loans",
    "/items/1%2f..%2f..%2floans", "/items/a%5c..%5c..%5cloans/loans", "/public/./info", "/public/%2e/info");

  private static Vertx vertx;
  private static HttpServer module;
  private static RoutingTable ingress;

  @BeforeAll
  static void startModule() throws Exception {
    ingress = ModuleDescriptorParser.parseRoutes(TestModule.bootstrap("http://others", "http://down", false)).ingress();
    vertx = Vertx.vertx();
    var router = Router.router(vertx);
    var patterns = new ArrayList<String>();
    ingress.entries().forEach(entry -> patterns.add(entry.staticPath()));
    // an endpoint the module has beside its descriptor's, which no permission guards here
    patterns.add("/loans");
    for (var pattern : patterns) {
      router.route(pattern.replaceAll("\\{([^}]+)}", ":$1")).handler(context -> context.response().end(pattern));
    }
    module = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").toCompletionStage()
      .toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @AfterAll
  static void stopModule() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void noPathReachesAHandlerOtherThanTheOneItsPermissionWasCheckedFor() throws Exception {
    var confused = new ArrayList<String>();
    int refused = 0;
    for (var path : PATHS) {
      var forwarded = RequestPaths.canonical(path);
      if (forwarded == null) {
        refused++;
        continue;
      }
      var checked = ingress.lookup("GET", forwarded);
      if (checked == null) {
        // the sidecar answers 404 itself
        continue;
      }
      var served = servedBy(forwarded);
      if (!checked.staticPath().equals(served)) {
        confused.add(path + " checked as " + checked.staticPath() + ", served by " + served);
      }
    }
    System.out.printf("path confusion: %d paths, %d refused, %d confused%n", PATHS.size(), refused, confused.size());
    assertThat(confused).isEmpty();
  }

  @Test
  void withoutTheRuleTheSamePathsWouldBeConfused() throws Exception {
    // the test's own check: forwarding and routing the raw path, as before the rule, serves other endpoints
    var confused = new ArrayList<String>();
    for (var path : PATHS) {
      var checked = ingress.lookup("GET", path);
      var served = checked == null ? null : servedBy(path);
      if (checked != null && !checked.staticPath().equals(served)) {
        confused.add(path);
      }
    }
    assertThat(confused).contains("/items/../loans", "/items/%2e%2e/loans", "/downloads/%2e%2e");
  }

  private static @Nullable String servedBy(String uri) throws Exception {
    var client = vertx.createHttpClient();
    try {
      return client.request(HttpMethod.GET, module.actualPort(), "127.0.0.1", uri)
        .compose(request -> request.send())
        .compose(response -> response.body().map(body -> response.statusCode() == 200 ? body.toString() : null))
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } finally {
      client.close();
    }
  }
}
