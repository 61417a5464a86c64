package org.folio.sidecar.testkit;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * The manifests as a pod: the rendered kustomize overlay started by {@code podman kube play} against the demo's
 * Keycloak, Kafka and managers, with a tiny stand-in for the module image; then both containers checked as the
 * kernel sees them (non-root uid, no capabilities, no new privileges, seccomp), the probe paths, an allowed and
 * a denied request through the sidecar's port, the metrics on the management port, and a clean stop.
 * Only what a local run needs is changed, and each change is printed: the platform's addresses and secrets in
 * the ConfigMap and Secret, free loopback ports on the host's network (hostNetwork, as the demo's services
 * listen on loopback), the module's descriptor mounted instead of mgr-applications. Run by ops/pod-smoke.sh.
 */
public final class PodSmoke {

  // what podman kube play runs; the rest of a rendered overlay is a cluster's business
  private static final Set<String> PODMAN_KINDS = Set.of("Deployment", "ConfigMap", "Secret");
  private static final String DESCRIPTOR = "/etc/module/descriptor.json";

  private final Checks checks = new Checks();
  private static Map<String, Object> secret = Map.of();
  private String podName = "";

  public static void main(String[] args) {
    int exit;
    try {
      exit = new PodSmoke().run(Path.of(args[0]), args[1]);
    } catch (Exception e) {
      e.printStackTrace();
      exit = 1;
    }
    System.exit(exit);
  }

  @SuppressWarnings("unchecked")
  private int run(Path rendered, String moduleImage) throws Exception {
    var platform = TestPlatform.get();
    int httpPort = FreePorts.next();
    int managementPort = FreePorts.next();
    int modulePort = FreePorts.next();
    var pod = pod(rendered, platform, moduleImage, httpPort, managementPort, modulePort);
    var file = Files.createTempFile("pod", ".yaml");
    var options = new DumperOptions();
    options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
    Files.writeString(file, new Yaml(options).dumpAll(pod.iterator()));
    var secretName = (String) ((Map<String, Object>) secret.get("metadata")).get("name");
    var secretFile = Files.createTempFile("secret", ".json");
    // podman reads a secret for envFrom as a flat JSON map of key to base64 value
    Files.writeString(secretFile, new JsonObject((Map<String, Object>) secret.get("data")).encode());
    // podman 4.3 names a Deployment's pod <deployment>-pod-0 and its containers <pod>-<container>
    podName = pod.stream().filter(object -> "Deployment".equals(object.get("kind")))
      .map(object -> (String) ((Map<String, Object>) object.get("metadata")).get("name")).findFirst().orElseThrow()
      + "-pod-0";
    // what an earlier run that was killed may have left: the same names, so only its own
    Podman.run(60, "pod", "rm", "-f", "-t", "0", podName);
    Podman.run(30, "secret", "rm", secretName);
    var created = Podman.run(30, "secret", "create", secretName, secretFile.toString());
    checks.verify("the Secret as a podman secret", created.exit() == 0, created.output());
    Files.delete(secretFile);
    // a run ended by its script's timeout (SIGTERM) leaves no pod behind: conmon is not this process's child
    var cleanup = new Thread(() -> removeQuietly(secretName));
    Runtime.getRuntime().addShutdownHook(cleanup);
    try {
      var played = Podman.run(120, "kube", "play", file.toString());
      checks.verify("podman kube play starts the pod " + podName, played.exit() == 0
        && Podman.run(10, "pod", "exists", podName).exit() == 0, played.output());
      if (played.exit() == 0) {
        check(platform, "http://127.0.0.1:" + httpPort, "http://127.0.0.1:" + managementPort);
      }
    } finally {
      // kube down in podman 4.3 looks for another pod index than play made: the pod is removed by its name
      var down = Podman.run(60, "pod", "rm", "-f", podName);
      checks.verify("the pod is removed", down.exit() == 0 && Podman.run(10, "pod", "exists", podName).exit() == 1,
        down.output());
      Podman.run(30, "secret", "rm", secretName);
      Files.delete(file);
      Runtime.getRuntime().removeShutdownHook(cleanup);
    }
    return checks.summary("pod-smoke");
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> pod(Path rendered, TestPlatform platform, String moduleImage,
    int httpPort, int managementPort, int modulePort) throws IOException {
    var config = platform.sidecarConfig();
    var objects = new ArrayList<Map<String, Object>>();
    for (var document : new Yaml().loadAll(Files.readString(rendered))) {
      var object = (Map<String, Object>) document;
      var kind = (String) object.get("kind");
      var name = (String) ((Map<String, Object>) object.get("metadata")).get("name");
      if (!PODMAN_KINDS.contains(kind)) {
        System.out.println("podman ignores: " + kind + " " + name);
        continue;
      }
      objects.add(object);
      switch (kind) {
        case "ConfigMap" -> {
          var data = (Map<String, Object>) object.get("data");
          var local = new LinkedHashMap<String, Object>(Map.of("KC_URL", config.get("kc.url"),
            "MODULE_URL", "http://127.0.0.1:" + modulePort, "MODULE_NAME", TestModule.NAME,
            "MODULE_VERSION", TestModule.VERSION,
            "TE_CLIENT_URL", config.get("tenant.entitlements-url"), "TM_CLIENT_URL", config.get("tenant.tenants-url"),
            "AM_CLIENT_URL", config.get("tenant.entitlements-url"), "KAFKA_HOST", config.get("events.kafka-host"),
            "KAFKA_PORT", config.get("events.kafka-port")));
          local.put("MODULE_DESCRIPTOR_PATH", DESCRIPTOR);
          System.out.println("local run: ConfigMap " + name + " points at the demo's platform: " + local.keySet()
            + "; SIDECAR_URL stays the manifests' " + data.get("SIDECAR_URL") + " (the module stand-in makes no"
            + " egress call here: ops/chart-smoke.sh's module does, through its pod's loopback)");
          data.putAll(local);
        }
        case "Secret" -> {
          objects.remove(object);
          secret = object;
          var secrets = new LinkedHashMap<String, Object>();
          config.forEach((key, value) -> {
            if (key.startsWith("secret-store.ephemeral.content.")) {
              secrets.put(("SECRET_STORE_EPHEMERAL_CONTENT_" + key.substring(31)).toUpperCase()
                .replaceAll("[^A-Z0-9]", "_"), value);
            }
          });
          System.out.println("local run: Secret " + name + " holds the demo's " + secrets.size() + " client secrets;"
            + " made a podman secret in JSON beforehand (podman 4.3's kube play stores a Secret document as YAML,"
            + " which its own envFrom then cannot read)");
          // as a cluster stores it: data, base64 (podman reads only that)
          object.remove("stringData");
          var data = new LinkedHashMap<String, Object>();
          secrets.forEach((key, value) -> data.put(key,
            Base64.getEncoder().encodeToString(String.valueOf(value).getBytes(StandardCharsets.UTF_8))));
          object.put("data", data);
        }
        default -> localDeployment(object, moduleImage, httpPort, managementPort, modulePort);
      }
    }
    var descriptor = new LinkedHashMap<String, Object>();
    descriptor.put("apiVersion", "v1");
    descriptor.put("kind", "ConfigMap");
    descriptor.put("metadata", Map.of("name", "module-descriptor"));
    descriptor.put("data", Map.of("descriptor.json", Files.readString(Path.of(platform.descriptorPath()))));
    objects.add(descriptor);
    return objects;
  }

  @SuppressWarnings("unchecked")
  private static void localDeployment(Map<String, Object> deployment, String moduleImage, int httpPort,
    int managementPort, int modulePort) {
    var spec = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) deployment.get("spec"))
      .get("template")).get("spec");
    // podman 4.3 starts a pod per replica, and on the host's network a second one would take the same ports
    var deploymentSpec = (Map<String, Object>) deployment.get("spec");
    System.out.println("local run: replicas " + deploymentSpec.get("replicas")
      + " -> 1 (podman starts a pod per replica); hostNetwork, the demo's services listen on loopback");
    deploymentSpec.put("replicas", 1);
    spec.put("hostNetwork", true);
    ((List<Map<String, Object>>) spec.computeIfAbsent("volumes", key -> new ArrayList<>()))
      .add(Map.of("name", "module-descriptor", "configMap", Map.of("name", "module-descriptor")));
    System.out.println("local run: containerPorts dropped (podman maps none on the host's network) and the probes"
      + " on port " + httpPort + " instead of the named port");
    for (var container : (List<Map<String, Object>>) spec.get("containers")) {
      container.remove("ports");
      for (var probe : List.of("readinessProbe", "livenessProbe", "startupProbe")) {
        if (container.get(probe) instanceof Map<?, ?> declared && declared.get("httpGet") instanceof Map<?, ?> get) {
          ((Map<String, Object>) get).put("port", httpPort);
        }
      }
      if ("module".equals(container.get("name"))) {
        System.out.println("local run: module image " + container.get("image") + " -> " + moduleImage
          + " (busybox httpd on 127.0.0.1:" + modulePort + ")");
        container.put("image", moduleImage);
        container.put("args", List.of("127.0.0.1:" + modulePort));
        continue;
      }
      for (var env : (List<Map<String, Object>>) container.get("env")) {
        switch ((String) env.get("name")) {
          case "QUARKUS_HTTP_PORT" -> env.put("value", String.valueOf(httpPort));
          case "QUARKUS_MANAGEMENT_PORT" -> env.put("value", String.valueOf(managementPort));
          default -> {
          }
        }
      }
      System.out.println("local run: sidecar on 127.0.0.1:" + httpPort + ", management 127.0.0.1:" + managementPort
        + ", descriptor mounted at " + DESCRIPTOR);
      ((List<Map<String, Object>>) container.get("volumeMounts"))
        .add(Map.of("name", "module-descriptor", "mountPath", "/etc/module", "readOnly", true));
    }
  }

  private void check(TestPlatform platform, String base, String management) throws Exception {
    boolean ready = false;
    for (int i = 0; i < 120 && !ready; i++) {
      ready = checks.body(base + "/admin/health/ready") != null;
      if (!ready) {
        Thread.sleep(1_000);
      }
    }
    checks.verify("readiness " + base + "/admin/health/ready answers 200", ready, "not ready in 120 s");
    checks.verify("liveness answers 200", checks.body(base + "/admin/health/live") != null, "");
    var healthcheck = Podman.run(10, "inspect", "--format", "{{json .Config.Healthcheck.Test}}",
      containerName("sidecar"));
    System.out.println("podman ignores: readinessProbe, startupProbe and lifecycle.preStop (podman 4.3 has no such"
      + " checks or hooks; the probe paths are asked from the host here); it makes the livenessProbe a healthcheck"
      + " command run inside the container, " + healthcheck.output().trim() + ", which needs a curl the image does not"
      + " have, and runs only under systemd's timers");
    for (var container : List.of("module", "sidecar")) {
      containerChecks(container);
    }
    var alpha = platform.alpha();
    var allowed = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
    var denied = platform.tokens().login(alpha, alpha.denied()).getString("access_token");
    int allowedStatus = checks.allowedStatus(base + "/items/1", "alpha", allowed);
    int deniedStatus = checks.status(base + "/items/1", "alpha", denied);
    checks.verify("allowed request through the sidecar's port -> 200", allowedStatus == 200, "got " + allowedStatus);
    checks.verify("denied request through the sidecar's port -> 403", deniedStatus == 403, "got " + deniedStatus);
    var metrics = checks.body(management + "/q/metrics");
    checks.verify("metrics on the management port count the allowed request", metrics != null
      && metrics.contains("sidecar_requests_total{direction=\"ingress\",outcome=\"forwarded\",status=\"200\"} 1.0"),
      "no such series");

    long stopping = System.nanoTime();
    var stopped = Podman.run(60, "pod", "stop", "-t", "40", podName);
    System.out.printf("pod stopped in %.1f s%n", (System.nanoTime() - stopping) / 1e9);
    checks.verify("the pod stops within its grace period", stopped.exit() == 0, stopped.output());
    for (var container : List.of("module", "sidecar")) {
      var state = Podman.run(10, "inspect", "--format", "{{.State.Status}} {{.State.ExitCode}}",
        containerName(container)).output().trim();
      System.out.println(container + " after the stop: " + state);
      // 143: ended by the SIGTERM podman sends; 137 would be the SIGKILL after the grace period
      checks.verify(container + " exited on SIGTERM, not killed after the grace period",
        state.equals("exited 0") || state.equals("exited 143"), state);
    }
    var logs = Podman.run(10, "logs", containerName("sidecar"));
    var lines = logs.output().lines().toList();
    checks.verify("the sidecar shut down cleanly (Quarkus' 'stopped in' line)", logs.output().contains("stopped in"),
      "its last lines: " + String.join("\n", lines.subList(Math.max(0, lines.size() - 5), lines.size())));
  }

  /** The kernel's view of the container's first process: its uid, capabilities, privileges and seccomp. */
  private void containerChecks(String container) throws Exception {
    var name = containerName(container);
    var state = Podman.run(10, "inspect", "--format", "{{.State.Status}} {{.State.Pid}} {{.Config.User}}", name)
      .output()
      .trim().split("\\s+");
    boolean running = state.length == 3 && "running".equals(state[0]) && !"0".equals(state[1]);
    checks.verify(name + " is running", running, String.join(" ", state));
    if (!running) {
      return;
    }
    var status = Podman.status(Long.parseLong(state[1]));
    System.out
      .println(container + " (pid " + state[1] + ", image user " + state[2] + "): Uid " + Podman.field(status, "Uid")
        + ", Gid " + Podman.field(status, "Gid") + ", CapEff " + Podman.field(status, "CapEff") + ", CapBnd "
        + Podman.field(status, "CapBnd")
        + ", NoNewPrivs " + Podman.field(status, "NoNewPrivs") + ", Seccomp " + Podman.field(status, "Seccomp"));
    // real, effective, saved and file-system uid all as declared
    var uids = Podman.field(status, "Uid").split("\\s+");
    var expectedUid = "module".equals(container) ? "1000" : "185";
    checks.verify(container + " runs as uid " + expectedUid + " (non-root, as declared)",
      List.of(uids).stream().allMatch(expectedUid::equals), Podman.field(status, "Uid"));
    if ("sidecar".equals(container)) {
      checks.verify("sidecar runs with gid 0 (runAsGroup)", Podman.field(status, "Gid").split("\\s+")[1].equals("0"),
        Podman.field(status, "Gid"));
    }
    for (var set : List.of("CapEff", "CapPrm", "CapBnd", "CapAmb")) {
      checks.verify(container + " has no capabilities (" + set + ", drop ALL)", Podman.field(status, set).matches("0+"),
        Podman.field(status, set));
    }
    checks.verify(container + " cannot gain privileges (allowPrivilegeEscalation: false)",
      "1".equals(Podman.field(status, "NoNewPrivs")), Podman.field(status, "NoNewPrivs"));
    checks.verify(container + " runs under seccomp (RuntimeDefault)", "2".equals(Podman.field(status, "Seccomp")),
      Podman.field(status, "Seccomp"));
    if ("sidecar".equals(container)) {
      var readOnly = Podman.run(10, "inspect", "--format", "{{.HostConfig.ReadonlyRootfs}}", name).output().trim();
      checks.verify("sidecar's root file system is read-only", "true".equals(readOnly), readOnly);
    }
  }

  private String containerName(String container) {
    return podName + "-" + container;
  }

  private void removeQuietly(String secretName) {
    try {
      Podman.run(60, "pod", "rm", "-f", "-t", "0", podName);
      Podman.run(30, "secret", "rm", secretName);
    } catch (IOException e) {
      System.err.println("could not remove pod " + podName + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
