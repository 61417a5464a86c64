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
import java.util.stream.Stream;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.config.EgressConfig;
import org.folio.sidecar.config.EventsConfig;
import org.folio.sidecar.config.KeycloakConfig;
import org.folio.sidecar.config.ModuleConfig;
import org.folio.sidecar.config.SidecarConfig;
import org.folio.sidecar.config.TenantConfig;
import org.folio.sidecar.config.TokenConfig;
import org.folio.sidecar.config.UsersConfig;
import org.folio.sidecar.support.Kustomize;
import org.folio.sidecar.support.Manifests;
import org.folio.sidecar.support.ProjectHome;
import org.junit.jupiter.api.Test;

/** The manifests operators deploy: they parse, and every variable they give the sidecar is one it reads. */
class ManifestsTest {

  private static final List<Class<?>> MAPPINGS = List.of(ModuleConfig.class, KeycloakConfig.class,
    SidecarConfig.class, AuthzCacheConfig.class, EgressConfig.class, TokenConfig.class, TenantConfig.class,
    EventsConfig.class, UsersConfig.class);
  private static final List<String> READ_BY_PREFIX = List.of("SECRET_STORE_EPHEMERAL_CONTENT_", "QUARKUS_");
  private static final Set<Object> KUSTOMIZE_KINDS = Set.of("Kustomization", "Component");
  private static final Path OVERLAY = Manifests.ROOT.resolve("overlays/mod-inventory");
  private static final Path ROUTE_OVERRIDES = Manifests.ROOT.resolve("components/route-overrides");
  // the restricted Pod Security Standard's volume types
  private static final Set<String> RESTRICTED_VOLUMES = Set.of("configMap", "csi", "downwardAPI", "emptyDir",
    "ephemeral", "persistentVolumeClaim", "projected", "secret");

  @Test
  void everyManifestParsesAsKubernetesObjects() {
    assertThat(Manifests.files()).hasSizeGreaterThanOrEqualTo(10);
    for (var file : Manifests.files()) {
      for (var document : Manifests.documents(file)) {
        assertThat(document).as(file.toString()).containsKeys("apiVersion", "kind");
        if (!KUSTOMIZE_KINDS.contains(document.get("kind"))) {
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
      if (!KUSTOMIZE_KINDS.contains(document.get("kind"))) {
        continue;
      }
      for (var key : List.of("resources", "patches", "components")) {
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
    // the overlay with every opt-in component: all a sidecar can be given
    var rendered = Kustomize.build(withRouteOverrides());
    ((Map<String, Object>) only(rendered, "ConfigMap", "folio-module-sidecar").get("data")).keySet()
      .forEach(given::add);
    ((Map<String, Object>) only(rendered, "Secret", "folio-module-sidecar").get("stringData")).keySet()
      .forEach(given::add);
    ((List<Map<String, Object>>) container(rendered, "sidecar").get("env"))
      .forEach(env -> given.add((String) env.get("name")));

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

    var repository = ProjectHome.imageRepository(Path.of(".."));

    assertThat(Files.readString(Path.of("../image/name.sh"))).contains(". build-config/project.env")
      .doesNotContain("IMAGE_REPOSITORY=");
    assertThat(Manifests.sidecarContainer().get("image")).isEqualTo(repository + ":" + version);
    assertThat(Files.readString(Path.of("../image/build.sh"))).contains(". image/name.sh");
  }

  /**
   * The image's repository is written once, in build-config/project.env, and ops/set-project-url.sh moves every use
   * of it: k8s/, the docs and README name no other repository of its registry.
   */
  @Test
  void k8sAndTheDocsNameOnlyTheProjectsImageRepository() throws IOException {
    var project = Path.of("..");
    var repository = ProjectHome.imageRepository(project);
    var named = Pattern
      .compile(Pattern.quote(repository.substring(0, repository.indexOf('/'))) + "/[A-Za-z0-9._/-]*[A-Za-z0-9_-]");
    List<Path> files;
    try (var k8s = Files.walk(project.resolve("k8s")); var docs = Files.walk(project.resolve("docs"))) {
      files = Stream.concat(Stream.concat(k8s, docs), Stream.of(project.resolve("README.md")))
        .filter(path -> path.toString().matches(".*\\.(md|yaml|env)$")).toList();
    }
    int mentions = 0;
    for (var file : files) {
      for (var name : named.matcher(Files.readString(file)).results().map(match -> match.group()).toList()) {
        assertThat(name).as("an image named in %s", file).isEqualTo(repository);
        mentions++;
      }
    }
    assertThat(mentions).as("mentions of the image's repository").isGreaterThanOrEqualTo(5);
  }

  /**
   * A new machine has no image but the ones its run builds: a name written twice goes stale in one place (the module
   * stand-in's base once did, and only a machine that still held the old image passed), and a script outside its own
   * container storage can find an image an earlier run left.
   */
  @Test
  void imageNamesLiveInOnePlaceAndEveryImageScriptHasItsOwnStorage() throws IOException {
    var literal = Pattern.compile("(localhost|ghcr\\.io)/[a-z0-9._-]+/?[a-z0-9._-]*(:[A-Za-z0-9._-]+)?");
    var project = Path.of("..");
    var nameFile = project.resolve("image/name.sh").normalize();
    List<Path> scripts;
    try (var paths = Files.walk(project, 4)) {
      scripts = paths.filter(Files::isRegularFile).map(Path::normalize)
        .filter(path -> !path.toString().contains("/target/") && !path.toString().contains("/results/"))
        .filter(path -> path.toString().endsWith(".sh") || path.getFileName().toString().startsWith("Containerfile")
          || path.endsWith(Path.of(".ci/run")))
        .toList();
    }
    assertThat(scripts).contains(project.resolve("ops/pod/Containerfile").normalize());
    for (var script : scripts) {
      var text = Files.readString(script);
      if (!script.equals(nameFile)) {
        assertThat(literal.matcher(text).results().map(match -> match.group()).toList())
          .as("image names in %s (define them in image/name.sh)", script).isEmpty();
      }
      var runsPodman = text.lines().anyMatch(line -> !line.strip().startsWith("#") && line.contains("podman"));
      if (runsPodman && !script.toString().contains("with-storage") && !script.endsWith("aot-train-run.sh")
        && !script.getFileName().toString().startsWith("Containerfile")) {
        assertThat(text).as("%s runs podman in a container storage of its own", script)
          .containsAnyOf(". image/storage.sh ", "image/with-storage.sh");
      }
    }
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
    // per container: a pod-level runAsNonRoot would bind the module, whose image names its user
    assertThat(pod).doesNotContainKey("securityContext");
    // the read-only root file system leaves /tmp writable through an emptyDir
    var mounts = (List<Map<String, Object>>) sidecar.get("volumeMounts");
    var tmp = mounts.stream().filter(mount -> "/tmp".equals(mount.get("mountPath"))).findFirst().orElseThrow();
    var volumes = (List<Map<String, Object>>) pod.get("volumes");
    assertThat(volumes)
      .anyMatch(volume -> tmp.get("name").equals(volume.get("name")) && volume.containsKey("emptyDir"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void bothContainersMeetTheRestrictedPodSecurityStandard() {
    var deployment = only(Kustomize.build(OVERLAY), "Deployment", "folio-module");
    var pod = Kustomize.podSpec(deployment);
    var podContext = (Map<String, Object>) pod.getOrDefault("securityContext", Map.of());
    var containers = (List<Map<String, Object>>) pod.get("containers");

    assertThat(containers).extracting(container -> container.get("name")).containsExactly("module", "sidecar");
    for (var key : List.of("hostNetwork", "hostPID", "hostIPC")) {
      assertThat(pod.get(key)).as(key).isNotEqualTo(true);
    }
    for (var volume : (List<Map<String, Object>>) pod.getOrDefault("volumes", List.of())) {
      assertThat(volume.keySet()).as("volume " + volume.get("name")).anyMatch(RESTRICTED_VOLUMES::contains);
    }
    for (var container : containers) {
      var name = "container " + container.get("name");
      var context = (Map<String, Object>) container.get("securityContext");
      assertThat(context).as(name).containsEntry("allowPrivilegeEscalation", false);
      assertThat(context.get("privileged")).as(name).isNotEqualTo(true);
      var capabilities = (Map<String, Object>) context.get("capabilities");
      assertThat((List<String>) capabilities.get("drop")).as(name).contains("ALL");
      assertThat((List<String>) capabilities.getOrDefault("add", List.of())).as(name)
        .isSubsetOf("NET_BIND_SERVICE");
      assertThat(context.getOrDefault("runAsNonRoot", podContext.get("runAsNonRoot"))).as(name).isEqualTo(true);
      // a named USER in the image cannot be checked by the kubelet: runAsNonRoot needs a numeric, non-zero uid
      assertThat(context.get("runAsUser")).as(name).isInstanceOf(Integer.class).isNotEqualTo(0);
      var seccomp = (Map<String, Object>) context.getOrDefault("seccompProfile", podContext.get("seccompProfile"));
      assertThat(seccomp.get("type")).as(name).isIn("RuntimeDefault", "Localhost");
      for (var port : (List<Map<String, Object>>) container.getOrDefault("ports", List.of())) {
        assertThat(port).as(name + " hostPort").doesNotContainKey("hostPort");
      }
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void aChangedVariableRenamesTheConfigMapSoThePodsRoll() throws IOException {
    var rendered = Kustomize.build(OVERLAY);
    var configMap = only(rendered, "ConfigMap", "folio-module-sidecar");
    var name = Kustomize.name(configMap);
    var envFrom = (List<Map<String, Object>>) container(rendered, "sidecar").get("envFrom");

    assertThat(name).matches("folio-module-sidecar-mod-inventory-[a-z0-9]{10}");
    assertThat(envFrom).anySatisfy(source -> assertThat(source.get("configMapRef")).isEqualTo(Map.of("name", name)));
    assertThat((Map<String, Object>) configMap.get("data")).containsEntry("MODULE_NAME", "mod-inventory");

    var changed = Kustomize.overlayOf(OVERLAY, List.of(), "configMapGenerator:\n  - name: folio-module-sidecar\n"
      + "    behavior: merge\n    literals: [SC_LOG_LEVEL=DEBUG]\n");
    assertThat(Kustomize.name(only(Kustomize.build(changed), "ConfigMap", "folio-module-sidecar"))).isNotEqualTo(name)
      .startsWith("folio-module-sidecar-mod-inventory-");
  }

  @Test
  @SuppressWarnings("unchecked")
  void routeOverridesAreAnOptInComponent() throws IOException {
    assertThat(Kustomize.build(OVERLAY)).noneMatch(object -> Kustomize.name(object).startsWith("folio-route"));

    var rendered = Kustomize.build(withRouteOverrides());
    var configMap = only(rendered, "ConfigMap", "folio-route-overrides");
    var pod = Kustomize.podSpec(only(rendered, "Deployment", "folio-module"));
    var sidecar = container(rendered, "sidecar");

    assertThat((List<Map<String, Object>>) pod.get("volumes")).anySatisfy(volume -> assertThat(volume.get("configMap"))
      .isEqualTo(Map.of("name", Kustomize.name(configMap))));
    assertThat((List<Map<String, Object>>) sidecar.get("env")).contains(
      Map.of("name", "SIDECAR_ROUTE_OVERRIDES_FILE", "value", "/etc/sidecar/route-overrides.json"));
    // the volumes the base has stay, the patch only adds
    assertThat((List<Map<String, Object>>) sidecar.get("volumeMounts")).extracting(mount -> mount.get("mountPath"))
      .contains("/tmp", "/etc/sidecar");
  }

  /**
   * The PodMonitor and the plain scrape job find a sidecar by its container's name and the management port, which
   * both folio-helm-v2's pods (no ports on the sidecar container) and the base's have.
   */
  @Test
  @SuppressWarnings("unchecked")
  void thePodMonitorFindsTheSidecarWithoutANamedPort() throws IOException {
    var monitor = Manifests.documents(Manifests.ROOT.resolve("monitoring/podmonitor.yaml")).get(0);
    var endpoint = ((List<Map<String, Object>>) ((Map<String, Object>) monitor.get("spec"))
      .get("podMetricsEndpoints")).get(0);
    var relabelings = (List<Map<String, Object>>) endpoint.get("relabelings");
    var sidecar = container(Kustomize.build(OVERLAY), "sidecar");
    var management = ((List<Map<String, Object>>) sidecar.get("ports")).stream()
      .filter(port -> "management".equals(port.get("name"))).findFirst().orElseThrow().get("containerPort");

    assertThat(monitor.get("kind")).isEqualTo("PodMonitor");
    assertThat(endpoint).containsEntry("path", "/q/metrics").doesNotContainKeys("port", "portNumber", "targetPort");
    assertThat(relabelings).anySatisfy(rule -> assertThat(rule).containsEntry("action", "keep")
      .containsEntry("regex", sidecar.get("name")));
    assertThat(relabelings).anySatisfy(rule -> assertThat(rule).containsEntry("targetLabel", "__address__")
      .containsEntry("replacement", "$1:" + management));
    var values = Files.readString(Manifests.ROOT.resolve("folio-helm-v2-values.yaml"));
    assertThat(values).contains("prometheus.io/port: \"" + management + "\"", "prometheus.io/path: /q/metrics");
    assertThat(Files.readString(Path.of("../ops/prometheus/scrape-sidecars.yaml"))).contains("regex: \"true;sidecar\"");
  }

  /**
   * Each pod's module sends its calls out to its own sidecar: SIDECAR_URL (the module's x-okapi-url) is the pod's
   * loopback on the sidecar's port, as folio-helm-v2 sets it, in the base and every overlay, however many replicas;
   * a Service address would send part of them to another pod's sidecar, which refuses egress from outside its pod.
   */
  @Test
  @SuppressWarnings("unchecked")
  void withReplicasEachModuleCallsItsOwnPodsSidecar() throws IOException {
    var overlays = new java.util.ArrayList<Path>(List.of(Manifests.ROOT.resolve("base")));
    try (var dirs = Files.list(Manifests.ROOT.resolve("overlays"))) {
      dirs.forEach(overlays::add);
    }
    overlays.add(Kustomize.overlayOf(OVERLAY, List.of(), "replicas:\n  - name: folio-module-mod-inventory\n"
      + "    count: 3\n"));
    for (var overlay : overlays) {
      var rendered = Kustomize.build(overlay);
      var sidecar = container(rendered, "sidecar");
      var port = ((List<Map<String, Object>>) sidecar.get("env")).stream()
        .filter(env -> "QUARKUS_HTTP_PORT".equals(env.get("name"))).findFirst().orElseThrow().get("value");
      var data = (Map<String, Object>) only(rendered, "ConfigMap", "folio-module-sidecar").get("data");

      assertThat(data.get("SIDECAR_URL")).as(overlay.toString()).isEqualTo("http://localhost:" + port);
    }
    var scaled = only(Kustomize.build(overlays.get(overlays.size() - 1)), "Deployment", "folio-module");
    assertThat(((Map<String, Object>) scaled.get("spec")).get("replicas")).isEqualTo(3);
  }

  @Test
  @SuppressWarnings("unchecked")
  void thePrometheusRuleCarriesTheRulesFileUnchanged() {
    var rules = Manifests.documents(Path.of("../ops/prometheus/sidecar-rules.yaml")).get(0);
    var resource = Manifests.documents(Manifests.ROOT.resolve("monitoring/prometheusrule.yaml")).get(0);

    assertThat(resource.get("kind")).isEqualTo("PrometheusRule");
    assertThat(((Map<String, Object>) resource.get("spec")).get("groups")).isEqualTo(rules.get("groups"));
  }

  private static Path withRouteOverrides() {
    return Kustomize.overlayOf(OVERLAY, List.of(ROUTE_OVERRIDES), "");
  }

  /** The one object of {@code kind} whose name starts with {@code name} (suffixes follow it). */
  private static Map<String, Object> only(List<Map<String, Object>> objects, String kind, String name) {
    var found = objects.stream()
      .filter(object -> kind.equals(Kustomize.kind(object)) && Kustomize.name(object).startsWith(name)).toList();
    assertThat(found).as(kind + " " + name).hasSize(1);
    return found.get(0);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> container(List<Map<String, Object>> objects, String name) {
    var pod = Kustomize.podSpec(only(objects, "Deployment", "folio-module"));
    return ((List<Map<String, Object>>) pod.get("containers")).stream()
      .filter(container -> name.equals(container.get("name"))).findFirst().orElseThrow();
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
