package org.folio.sidecar.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RoutingTableTest {

  private static RoutingEntry entry(String method, String pattern) {
    return RoutingEntry.of("mod-items-1.0.0", "items", "", pattern, Set.of(method), List.of("p"), List.of(), List.of());
  }

  @Test
  void variableMatchesOneSegmentOnly() {
    var pattern = PathPattern.compile("/items/{id}");
    assertThat(pattern.matches("/items/1")).isTrue();
    assertThat(pattern.matches("/items/")).isFalse();
    assertThat(pattern.matches("/items/1/holdings")).isFalse();
    assertThat(pattern.matches("/items/1/")).isFalse();
  }

  @Test
  void wildcardMatchesAnyRestIncludingNothing() {
    var pattern = PathPattern.compile("/inventory*");
    assertThat(pattern.matches("/inventory")).isTrue();
    assertThat(pattern.matches("/inventory/items/1")).isTrue();
    assertThat(PathPattern.compile("/a/*/c").matches("/a/b/x/c")).isTrue();
    assertThat(PathPattern.compile("/a/*/c").matches("/a/b/x/d")).isFalse();
  }

  @Test
  void mostSpecificPatternWins() {
    var byId = entry("GET", "/items/{id}");
    var literal = entry("GET", "/items/mine");
    var wildcard = entry("GET", "/items*");
    var table = new RoutingTable(List.of(wildcard, byId, literal));

    assertThat(table.lookup("GET", "/items/mine")).isSameAs(literal);
    assertThat(table.lookup("GET", "/items/42")).isSameAs(byId);
    assertThat(table.lookup("GET", "/items/42/notes")).isSameAs(wildcard);
  }

  @Test
  void methodMustMatch() {
    var table = new RoutingTable(List.of(entry("GET", "/items/{id}")));
    assertThat(table.lookup("DELETE", "/items/1")).isNull();
    assertThat(table.lookup("GET", "/other")).isNull();
  }

  @Test
  void leadingVariableIsFound() {
    var any = entry("GET", "/{tenant}/config");
    var table = new RoutingTable(List.of(any, entry("GET", "/items/{id}")));
    assertThat(table.lookup("GET", "/diku/config")).isSameAs(any);
  }

  @Test
  void permissionIsStaticPathAndMethodAndPathWinsOverPattern() {
    var table = ModuleDescriptorParser.parseRoutes(new JsonObject("""
      {"provides":[{"id":"items","handlers":[
        {"methods":["GET","PUT"],"pathPattern":"/items/{id}","permissionsRequired":["items.get"]},
        {"methods":["POST"],"path":"/items","pathPattern":"/items*","permissionsRequired":["items.post"]}]},
       {"id":"_timer","interfaceType":"system","handlers":[{"methods":["POST"],"pathPattern":"/items/expire"}]}]}
      """)).ingress();

    assertThat(table.lookup("PUT", "/items/7").permission("PUT")).isEqualTo("/items/{id}#PUT");
    assertThat(table.lookup("POST", "/items").permission("POST")).isEqualTo("/items#POST");
    var timer = table.lookup("POST", "/items/expire");
    assertThat(timer.requiresAuthorization()).isTrue();
    assertThat(timer.isSystem()).isFalse();
  }

  @Test
  void bootstrapShapeIsAccepted() {
    var table = ModuleDescriptorParser.parseRoutes(new JsonObject("""
      {"module":{"moduleId":"mod-a-1.0","interfaces":[{"id":"a","endpoints":[
        {"methods":["GET"],"pathPattern":"/a/{id}","permissionsRequired":[]}]}]}}
      """)).ingress();
    var entry = table.lookup("GET", "/a/1");
    assertThat(entry).isNotNull();
    assertThat(entry.requiresAuthorization()).isFalse();
  }
}
