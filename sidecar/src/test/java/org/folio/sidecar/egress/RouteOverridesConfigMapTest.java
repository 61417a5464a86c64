package org.folio.sidecar.egress;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.folio.sidecar.support.Manifests;
import org.junit.jupiter.api.Test;

/** The shipped overrides ConfigMap, read by the sidecar's own parser, routes as the seed's deployment needs. */
class RouteOverridesConfigMapTest {

  private static final List<String> DB_HEAVY = List.of("mod-source-record-storage", "mod-source-record-manager",
    "mod-inventory-storage", "mod-orders-storage", "mod-data-export", "mod-lists", "mod-fqm-manager");

  @Test
  @SuppressWarnings("unchecked")
  void dbHeavyModulesGoToTheirDeploymentAndOthersToDiscovery() {
    var data = (Map<String, String>) Manifests.documents(Manifests.ROOT
      .resolve("components/route-overrides/configmap-route-overrides.yaml")).get(0).get("data");
    var parsed = RouteOverrides.parseFile(data.get("route-overrides.json"), "route-overrides.json");
    var overrides = new RouteOverridesView(parsed);

    for (var module : DB_HEAVY) {
      assertThat(overrides.locationFor(module, "any-interface"))
        .hasValue("http://" + module + ".folio-dbheavy.svc:8082");
    }
    assertThat(overrides.locationFor("mod-circulation", "circulation")).isEmpty();
    assertThat(parsed.modules()).hasSize(7);
  }

  /** The file's overrides alone, as {@link RouteOverrides#locationFor} resolves them. */
  private record RouteOverridesView(RouteOverrides.Overrides overrides) {
    java.util.Optional<String> locationFor(String module, String anInterface) {
      return java.util.Optional.ofNullable(overrides.interfaces().get(anInterface))
        .or(() -> java.util.Optional.ofNullable(overrides.modules().get(module)));
    }
  }
}
