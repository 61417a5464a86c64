package org.folio.sidecar.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.config.ConfigMapping;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.config.EgressConfig;
import org.folio.sidecar.config.EventsConfig;
import org.folio.sidecar.config.KeycloakConfig;
import org.folio.sidecar.config.ModuleConfig;
import org.folio.sidecar.config.SidecarConfig;
import org.folio.sidecar.config.TenantConfig;
import org.folio.sidecar.config.TokenConfig;
import org.folio.sidecar.config.UsersConfig;
import org.folio.sidecar.support.Manifests;
import org.junit.jupiter.api.Test;

/** The manifests operators deploy: they parse, and every variable they give the sidecar is one it reads. */
class ManifestsTest {

  private static final List<Class<?>> MAPPINGS = List.of(ModuleConfig.class, KeycloakConfig.class,
    SidecarConfig.class, AuthzCacheConfig.class, EgressConfig.class, TokenConfig.class, TenantConfig.class,
    EventsConfig.class, UsersConfig.class);
  private static final List<String> READ_BY_PREFIX = List.of("SECRET_STORE_EPHEMERAL_CONTENT_", "QUARKUS_");

  @Test
  void everyManifestParsesAsKubernetesObjects() {
    assertThat(Manifests.files()).hasSizeGreaterThanOrEqualTo(10);
    for (var file : Manifests.files()) {
      for (var document : Manifests.documents(file)) {
        assertThat(document).as(file.toString()).containsKeys("apiVersion", "kind");
        if (!"Kustomization".equals(document.get("kind"))) {
          assertThat(document.get("metadata")).as(file + " metadata").isInstanceOf(Map.class);
        }
      }
    }
    var kinds = new HashSet<Object>();
    Manifests.files().forEach(file -> Manifests.documents(file).forEach(document -> kinds.add(document.get("kind"))));
    assertThat(kinds).contains("Deployment", "Service", "PodDisruptionBudget", "HorizontalPodAutoscaler",
      "ConfigMap", "Secret", "Kustomization");
  }

  @Test
  @SuppressWarnings("unchecked")
  void kustomizationsNameOnlyFilesThatExist() {
    for (var file : Manifests.files()) {
      var document = Manifests.documents(file).get(0);
      if (!"Kustomization".equals(document.get("kind"))) {
        continue;
      }
      for (var key : List.of("resources", "patches")) {
        for (var item : (List<Object>) document.getOrDefault(key, List.of())) {
          var relative = item instanceof Map<?, ?> patch ? (String) patch.get("path") : (String) item;
          assertThat(file.getParent().resolve(relative)).as(file + " → " + relative).exists();
        }
      }
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void everyVariableGivenToTheSidecarIsOneItReads() throws IOException {
    var known = knownVariables();
    var given = new HashSet<String>();
    ((Map<String, Object>) Manifests.base("configmap-sidecar.yaml").get("data")).keySet().forEach(given::add);
    ((Map<String, Object>) Manifests.base("secret-sidecar.yaml").get("stringData")).keySet().forEach(given::add);
    ((List<Map<String, Object>>) Manifests.sidecarContainer().get("env"))
      .forEach(env -> given.add((String) env.get("name")));
    var overlay = Manifests.documents(Manifests.ROOT.resolve("overlays/mod-inventory/kustomization.yaml")).get(0);
    for (var generator : (List<Map<String, Object>>) overlay.get("configMapGenerator")) {
      ((List<String>) generator.get("literals"))
        .forEach(literal -> given.add(literal.substring(0, literal.indexOf('='))));
    }

    assertThat(given).hasSizeGreaterThan(15);
    assertThat(given).allSatisfy(variable -> assertThat(known.contains(variable)
      || READ_BY_PREFIX.stream().anyMatch(variable::startsWith)).as(variable + " is read by the sidecar").isTrue());
  }

  @Test
  @SuppressWarnings("unchecked")
  void prometheusScrapesTheManagementPortNotModuleTraffic() {
    var sidecar = Manifests.sidecarContainer();
    var management = ((List<Map<String, Object>>) sidecar.get("ports")).stream()
      .filter(port -> "management".equals(port.get("name"))).findFirst().orElseThrow();
    var env = ((List<Map<String, Object>>) sidecar.get("env")).stream()
      .filter(variable -> "QUARKUS_MANAGEMENT_PORT".equals(variable.get("name"))).findFirst().orElseThrow();
    var template = (Map<String, Object>) Manifests.base("deployment.yaml").get("spec");
    var annotations = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) template.get("template"))
      .get("metadata")).get("annotations");

    assertThat(String.valueOf(management.get("containerPort"))).isEqualTo(env.get("value"))
      .isEqualTo(annotations.get("prometheus.io/port"));
    assertThat(annotations.get("prometheus.io/path")).isEqualTo("/q/metrics");
  }

  @Test
  void theSidecarImageIsTheOneTheBuildMakes() throws IOException {
    var pom = Files.readString(Path.of("../pom.xml"));
    var version = pom.replaceAll("(?s).*?<version>([^<]+)</version>.*", "$1").replace("-SNAPSHOT", "");

    assertThat(Manifests.sidecarContainer().get("image")).isEqualTo("folioorg/folio-caching-sidecar:" + version);
    assertThat(Files.readString(Path.of("../image/build.sh")))
      .contains("IMAGE=folioorg/folio-caching-sidecar:$VERSION");
  }

  @Test
  @SuppressWarnings("unchecked")
  void theSidecarRunsHardened() {
    var sidecar = Manifests.sidecarContainer();
    var security = (Map<String, Object>) sidecar.get("securityContext");
    assertThat(security).containsEntry("runAsNonRoot", true).containsEntry("readOnlyRootFilesystem", true)
      .containsEntry("allowPrivilegeEscalation", false).containsEntry("runAsUser", 185);
    assertThat((Map<String, Object>) security.get("capabilities")).containsEntry("drop", List.of("ALL"));
    assertThat((Map<String, Object>) security.get("seccompProfile")).containsEntry("type", "RuntimeDefault");

    var pod = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) Manifests.base("deployment.yaml")
      .get("spec")).get("template")).get("spec");
    assertThat((Map<String, Object>) pod.get("securityContext")).containsEntry("runAsNonRoot", true);
    // the read-only root file system leaves /tmp writable through an emptyDir
    var mounts = (List<Map<String, Object>>) sidecar.get("volumeMounts");
    var tmp = mounts.stream().filter(mount -> "/tmp".equals(mount.get("mountPath"))).findFirst().orElseThrow();
    var volumes = (List<Map<String, Object>>) pod.get("volumes");
    assertThat(volumes)
      .anyMatch(volume -> tmp.get("name").equals(volume.get("name")) && volume.containsKey("emptyDir"));
  }

  /** Upstream names wired in application.properties, plus every mapping property's own environment name. */
  static Set<String> knownVariables() throws IOException {
    var known = new HashSet<String>(Set.of("SECRET_STORE_TYPE"));
    var properties = Files.readString(Path.of("src/main/resources/application.properties"));
    var reference = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*)").matcher(properties);
    while (reference.find()) {
      known.add(reference.group(1));
    }
    for (var mapping : MAPPINGS) {
      var prefix = mapping.getAnnotation(ConfigMapping.class).prefix();
      for (Method method : mapping.getDeclaredMethods()) {
        if (!method.isDefault() && method.getParameterCount() == 0) {
          var kebab = method.getName().replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase();
          known.add((prefix + "." + kebab).toUpperCase().replaceAll("[^A-Z0-9]", "_"));
        }
      }
    }
    return known;
  }
}
