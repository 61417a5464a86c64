package org.folio.sidecar.testkit;

import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * folio-helm-v2 as shipped, with only the sidecar's image swapped: the sidecar container as the chart renders it
 * (name, image, the chart's environment of k8s/folio-helm-v2-sidecar.env with the module's own name, version and
 * URL; no ports, probes, security context, volumes or preStop) beside a module stand-in, in a Deployment with the
 * chart's labels and what k8s/folio-helm-v2-values.yaml adds where the chart renders it (the pod annotations, the
 * module container's readinessProbe, the sidecar's resources), started by {@code podman kube play} against the
 * demo's real Keycloak, Kafka and manager stubs. Shows: start to ready, the probe answering and failing during an
 * operator's drain, allowed 200 and denied 403, an egress call made inside the module's container through the
 * chart's {@code SIDECAR_URL} (the pod's loopback), the start-up lines (no {@code [error]} or {@code WARN}), RSS
 * under load against the values' limit and the chart's, and a real Prometheus finding the sidecar by the shipped scrape job (ops/prometheus/scrape-sidecars.yaml, its
 * relabelling run on the labels kubernetes_sd gives the chart's pod) with the alert rules loaded and one alert
 * firing. Only what a local run needs is changed, and each change is printed. Run by ops/chart-smoke.sh.
 */
public final class ChartSmoke {

  static final Path CHART_ENV = Path.of("k8s/folio-helm-v2-sidecar.env");
  static final Path CHART_VALUES = Path.of("k8s/folio-helm-v2-values.yaml");
  static final Path SCRAPE_JOB = Path.of("ops/prometheus/scrape-sidecars.yaml");
  static final Path RULES = Path.of("ops/prometheus/sidecar-rules.yaml");
  // the chart names the Deployment after the release and the module container after the chart: the module's name
  private static final String RELEASE = TestModule.NAME;
  // podman 4.3 names a Deployment's pod <deployment>-pod-0 and its containers <pod>-<container>
  private static final String POD = RELEASE + "-pod-0";
  private static final String NAMESPACE = "folio";
  // the JVM's unified logging pads its level ("[error  ]"); the log manager's lines have " WARN " or " ERROR "
  private static final Pattern JVM_OR_LOG_PROBLEM = Pattern.compile("\\[(error|warning)\\s*]| WARN | ERROR ");
  // Vert.x's warning that an event loop was busy for longer than 2 s: on a loaded machine a cold JVM's first class
  // loading does that; it says how busy the machine is, not how the sidecar is configured, so it is shown, not failed
  private static final Pattern MACHINE_LOAD = Pattern.compile("BlockedThreadChecker|has been blocked for");
  private static final Path SIDECAR_LOG = Path.of("testkit/target/chart-smoke-sidecar.log");
  // the chart's own limit; the values file's (320Mi) is read from it
  private static final long CHART_LIMIT_BYTES = 256L << 20;
  private static final int GETS = 2_000;
  private static final int GET_CONCURRENCY = 32;
  private static final int UPLOADS = 100;
  private static final int UPLOAD_BYTES = 9_000_000;

  private final Checks checks = new Checks();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private PrometheusProcess prometheus;
  private long limitBytes;

  public static void main(String[] args) {
    int exit;
    try {
      exit = new ChartSmoke().run(args[0], args[1]);
    } catch (Exception e) {
      e.printStackTrace();
      exit = 1;
    }
    // WireMock, Kafka and Vert.x threads would keep the JVM alive
    System.exit(exit);
  }

  private int run(String image, String moduleImage) throws Exception {
    var platform = TestPlatform.get();
    // a FOLIO realm's login client, <tenant>-application, which the chart's KC_LOGIN_CLIENT_SUFFIX names
    var suffix = chartEnvironment().get("KC_LOGIN_CLIENT_SUFFIX");
    new FolioRealms(platform.keycloakAdmin()).addLoginClient(platform.alpha(), suffix);
    System.out.println("local run: realm alpha gets the login client alpha" + suffix
      + " a FOLIO installation has (the chart's KC_LOGIN_CLIENT_SUFFIX)");
    // mgr-applications, as the chart's AM_CLIENT_URL reaches it: the module's bootstrap
    platform.managers()
      .stubFor(com.github.tomakehurst.wiremock.client.WireMock
        .get(urlPathMatching("/modules/" + TestModule.NAME + "-" + TestModule.VERSION
          + "(/bootstrap)?"))
        .willReturn(okJson(Files.readString(Path.of(platform.descriptorPath())))));
    // a cold realm's first logins are slow on a busy machine: taken before the sidecar starts, so its first loads
    // meet a Keycloak that answers in time (the start-up lines are checked for WARN)
    platform.tokens().login(platform.alpha(), platform.alpha().allowed());
    platform.tokens().service(platform.alpha());
    int httpPort = FreePorts.next();
    int managementPort = FreePorts.next();
    int modulePort = FreePorts.next();
    var env = environment(platform, httpPort, managementPort, modulePort);
    var deployment = deployment(image, moduleImage, env, managementPort, modulePort);
    var dir = Files.createTempDirectory("chart-smoke");
    var file = dir.resolve("chart-pod.yaml");
    var options = new DumperOptions();
    options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
    Files.writeString(file, new Yaml(options).dump(deployment));
    Podman.run(60, "pod", "rm", "-f", "-t", "0", POD);
    limitBytes = bytes(memoryLimit(deployment));
    // a run ended by its script's timeout (SIGTERM) leaves no pod behind: conmon is not this process's child
    var cleanup = new Thread(ChartSmoke::removePod);
    Runtime.getRuntime().addShutdownHook(cleanup);
    PrometheusProcess server = null;
    try {
      long playStarted = System.nanoTime();
      var played = Podman.run(180, "kube", "play", file.toString());
      checks.verify("podman kube play starts the chart's pod " + POD, played.exit() == 0
        && Podman.run(10, "pod", "exists", POD).exit() == 0, played.output());
      if (played.exit() == 0) {
        var base = "http://127.0.0.1:" + httpPort;
        if (awaitReady(base, playStarted)) {
          startLines();
          drain(platform, deployment, httpPort, managementPort);
          traffic(platform, base, env.get("SIDECAR_URL"));
          memory(platform, base);
          server = startPrometheus(dir, deployment, managementPort, modulePort, httpPort);
          prometheus = server;
          scrape(platform);
        }
      }
    } finally {
      if (server != null) {
        server.close();
      }
      Files.writeString(SIDECAR_LOG, Podman.run(30, "logs", POD + "-sidecar").output());
      System.out.println("sidecar's log: " + SIDECAR_LOG);
      var down = Podman.run(60, "pod", "rm", "-f", POD);
      checks.verify("the pod is removed", down.exit() == 0 && Podman.run(10, "pod", "exists", POD).exit() == 1,
        down.output());
      Runtime.getRuntime().removeShutdownHook(cleanup);
      try (Stream<Path> paths = Files.walk(dir)) {
        paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      }
    }
    return checks.summary("chart-smoke");
  }

  /**
   * The chart's environment: k8s/folio-helm-v2-sidecar.env with the module's own name, version and URL (the chart
   * fills those in per module), then the changes a local run needs, printed.
   */
  static Map<String, String> environment(TestPlatform platform, int httpPort, int managementPort, int modulePort)
    throws IOException {
    var env = chartEnvironment();
    var module = Map.of("MODULE_NAME", TestModule.NAME, "MODULE_VERSION", TestModule.VERSION,
      "MODULE_URL", "http://localhost:" + modulePort);
    env.putAll(module);
    System.out.println("the chart's environment (" + env.size() + " variables) with the module's own "
      + module.keySet());
    var config = platform.sidecarConfig();
    var local = new LinkedHashMap<String, String>();
    local.put("QUARKUS_HTTP_PORT", String.valueOf(httpPort));
    local.put("SIDECAR_URL", "http://localhost:" + httpPort);
    local.put("QUARKUS_MANAGEMENT_PORT", String.valueOf(managementPort));
    local.put("KC_URL", config.get("kc.url"));
    local.put("AM_CLIENT_URL", config.get("tenant.entitlements-url"));
    local.put("TE_CLIENT_URL", config.get("tenant.entitlements-url"));
    local.put("TM_CLIENT_URL", config.get("tenant.tenants-url"));
    local.put("MOD_USERS_KEYCLOAK_URL", config.get("users.keycloak-url"));
    local.put("KAFKA_HOST", config.get("events.kafka-host"));
    local.put("KAFKA_PORT", config.get("events.kafka-port"));
    local.put("SIDECAR_FORWARD_UNKNOWN_REQUESTS_DESTINATION", System.getProperty("testplatform.gateway"));
    local.put("SECRET_STORE_TYPE", "EPHEMERAL");
    System.out.println("local run: the pod on the host's network (the demo's platform listens on loopback), so"
      + " free ports instead of the chart's 8082 and the default management port 9000; the platform's addresses"
      + " and an EPHEMERAL secret store with the demo's client secrets instead of AWS SSM: " + local.keySet());
    env.remove("SECRET_STORE_AWS_SSM_REGION");
    env.putAll(local);
    config.forEach((key, value) -> {
      if (key.startsWith("secret-store.ephemeral.content.")) {
        env.put(("SECRET_STORE_EPHEMERAL_CONTENT_" + key.substring(31)).toUpperCase().replaceAll("[^A-Z0-9]", "_"),
          value);
      }
    });
    return env;
  }

  /** k8s/folio-helm-v2-sidecar.env as kustomize and docker read an env file: the value after the first '='. */
  static Map<String, String> chartEnvironment() throws IOException {
    var env = new LinkedHashMap<String, String>();
    for (var line : Files.readAllLines(CHART_ENV)) {
      if (!line.isBlank() && !line.startsWith("#")) {
        env.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1));
      }
    }
    return env;
  }

  /** The Deployment as folio-helm-v2 makes it for the module, its sidecar container the chart's. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> deployment(String image, String moduleImage, Map<String, String> env,
    int managementPort, int modulePort) throws IOException {
    var values = (Map<String, Object>) new Yaml().load(Files.readString(CHART_VALUES));
    var annotations = new LinkedHashMap<>((Map<String, Object>) values.get("podAnnotations"));
    System.out.println("the pod annotations of " + CHART_VALUES + ": " + annotations);
    annotations.put("prometheus.io/port", String.valueOf(managementPort));
    System.out.println("local run: prometheus.io/port " + managementPort + " (the management port of this run)");
    var sidecarValues = (Map<String, Object>) ((Map<String, Object>) values.get("sidecarContainers")).get("eureka");
    var sidecar = new LinkedHashMap<String, Object>();
    sidecar.put("name", "sidecar");
    sidecar.put("image", image);
    // the chart says Always; the image exists only in this machine's podman store
    sidecar.put("imagePullPolicy", "Never");
    sidecar.put("env", env.entrySet().stream().map(entry -> Map.of("name", entry.getKey(), "value", entry.getValue()))
      .toList());
    // where the chart renders them (helm template of the chart's commit with this file: the sidecar container's
    // resources, the module container's readinessProbe, the pod template's annotations)
    sidecar.put("resources", sidecarValues.get("resources"));
    System.out.println("the sidecar's resources of " + CHART_VALUES + " (the chart's: 256Mi limit, 128Mi request): "
      + sidecarValues.get("resources"));
    var module = new LinkedHashMap<String, Object>();
    module.put("name", TestModule.NAME);
    module.put("image", moduleImage);
    module.put("imagePullPolicy", "Never");
    module.put("args", List.of("127.0.0.1:" + modulePort));
    var probe = new LinkedHashMap<>((Map<String, Object>) values.get("readinessProbe"));
    var httpGet = new LinkedHashMap<>((Map<String, Object>) probe.get("httpGet"));
    System.out.println("the module container's readinessProbe of " + CHART_VALUES + ": " + probe);
    httpGet.put("port", httpPort(env));
    probe.put("httpGet", httpGet);
    module.put("readinessProbe", probe);
    System.out.println("local run: the probe's port " + httpPort(env) + " (the sidecar's port of this run)");
    System.out.println("local run: sidecar imagePullPolicy Always -> Never (a local image); module " + moduleImage
      + " (busybox httpd on 127.0.0.1:" + modulePort + ", busybox wget for its calls out)");
    var labels = Map.of("app.kubernetes.io/name", TestModule.NAME, "app.kubernetes.io/instance", RELEASE);
    var pod = new LinkedHashMap<String, Object>();
    pod.put("hostNetwork", true);
    pod.put("containers", List.of(module, sidecar));
    var deployment = new LinkedHashMap<String, Object>();
    deployment.put("apiVersion", "apps/v1");
    deployment.put("kind", "Deployment");
    deployment.put("metadata", Map.of("name", RELEASE, "labels", labels));
    deployment.put("spec", Map.of("replicas", 1, "strategy", Map.of("type", "Recreate"),
      "selector", Map.of("matchLabels", labels),
      "template", Map.of("metadata", Map.of("labels", labels, "annotations", annotations), "spec", pod)));
    return deployment;
  }

  private boolean awaitReady(String base, long playStarted) throws InterruptedException {
    boolean ready = false;
    long started = System.nanoTime();
    for (int i = 0; i < 180 && !ready; i++) {
      ready = checks.body(base + "/admin/health/ready") != null;
      if (!ready) {
        Thread.sleep(1_000);
      }
    }
    checks.verify("the sidecar is ready (" + base + "/admin/health/ready answers 200)", ready, "not in 180 s");
    long now = System.nanoTime();
    System.out.printf("start to ready: %.1f s from kube play (which returned after %.1f s), polled each second;"
      + " a kubelet probing every periodSeconds sees it at its next probe%n", (now - playStarted) / 1e9,
      (started - playStarted) / 1e9);
    return ready;
  }

  /**
   * The values' readinessProbe as the kubelet runs it (podman 4.3 runs no readiness probe): its path on its port
   * answers 200, an operator's drain makes it answer 503, so the pod leaves its Service after failureThreshold
   * probes, while requests already sent are still served; {@code /ok} brings it back.
   */
  @SuppressWarnings("unchecked")
  private void drain(TestPlatform platform, Map<String, Object> deployment, int httpPort, int managementPort)
    throws Exception {
    var module = container(deployment, TestModule.NAME);
    var probe = (Map<String, Object>) module.get("readinessProbe");
    var httpGet = (Map<String, Object>) probe.get("httpGet");
    var url = "http://127.0.0.1:" + httpGet.get("port") + httpGet.get("path");
    var timeout = Duration.ofSeconds(((Number) probe.get("timeoutSeconds")).longValue());
    int before = probeStatus(url, timeout);
    checks.verify("the module container's readinessProbe (" + httpGet.get("path") + ") answers 200", before == 200,
      "got " + before);
    var admin = "http://127.0.0.1:" + managementPort + "/admin/healthcheck/";
    int failed = adminPost(admin + "fail");
    int during = probeStatus(url, timeout);
    var alpha = platform.alpha();
    var token = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
    int served = checks.allowedStatus("http://127.0.0.1:" + httpPort + "/items/1", "alpha", token);
    System.out.println("drain: POST /admin/healthcheck/fail -> " + failed + ", the probe -> " + during
      + " (the pod leaves its Service after failureThreshold " + probe.get("failureThreshold") + " x periodSeconds "
      + probe.get("periodSeconds") + " s), a request sent to the pod meanwhile -> " + served);
    checks.verify("drain makes the readinessProbe fail (503)", failed == 200 && during == 503,
      "fail " + failed + ", probe " + during);
    checks.verify("a drained pod still serves what reaches it (200)", served == 200, "got " + served);
    int restored = adminPost(admin + "ok");
    int after = probeStatus(url, timeout);
    System.out.println("POST /admin/healthcheck/ok -> " + restored + ", the probe -> " + after);
    checks.verify("after /ok the readinessProbe answers 200 again", restored == 200 && after == 200,
      "ok " + restored + ", probe " + after);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> container(Map<String, Object> deployment, String name) {
    var template = (Map<String, Object>) ((Map<String, Object>) deployment.get("spec")).get("template");
    var containers = (List<Map<String, Object>>) ((Map<String, Object>) template.get("spec")).get("containers");
    return containers.stream().filter(c -> name.equals(c.get("name"))).findFirst().orElseThrow();
  }

  @SuppressWarnings("unchecked")
  private static String memoryLimit(Map<String, Object> deployment) {
    var resources = (Map<String, Object>) container(deployment, "sidecar").get("resources");
    return (String) ((Map<String, Object>) resources.get("limits")).get("memory");
  }

  /** A Kubernetes quantity in Mi or Gi. */
  static long bytes(String quantity) {
    long number = Long.parseLong(quantity.replaceAll("[^0-9]", ""));
    return quantity.endsWith("Gi") ? number << 30 : number << 20;
  }

  private static int httpPort(Map<String, String> env) {
    return Integer.parseInt(env.get("QUARKUS_HTTP_PORT"));
  }

  private int probeStatus(String url, Duration timeout) throws InterruptedException {
    try {
      return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(timeout).build(),
        HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return -1;
    }
  }

  private int adminPost(String url) throws IOException, InterruptedException {
    var request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
      .header("authorization", "Bearer " + TestPlatform.ADMIN_TOKEN).POST(HttpRequest.BodyPublishers.noBody());
    return http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  /** The sidecar's log up to "started in": no line at error level or WARN that the operator did not cause. */
  private void startLines() throws Exception {
    var lines = Podman.run(10, "logs", POD + "-sidecar").output().lines().toList();
    int end = 0;
    while (end < lines.size() && !lines.get(end).contains("started in")) {
      end++;
    }
    var start = lines.subList(0, Math.min(lines.size(), end + 1));
    System.out.println("start-up lines of the sidecar (" + start.size() + "):");
    start.forEach(line -> System.out.println("  | " + line));
    var bad = start.stream().filter(line -> JVM_OR_LOG_PROBLEM.matcher(line).find())
      .filter(line -> !MACHINE_LOAD.matcher(line).find()).toList();
    checks.verify("the start has no [error], [warning], WARN or ERROR line", bad.isEmpty(), String.join(" / ", bad));
  }

  private void traffic(TestPlatform platform, String base, String sidecarUrl) throws Exception {
    var alpha = platform.alpha();
    var allowed = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
    var denied = platform.tokens().login(alpha, alpha.denied()).getString("access_token");
    int allowedStatus = checks.allowedStatus(base + "/items/1", "alpha", allowed);
    int deniedStatus = checks.status(base + "/items/1", "alpha", denied);
    System.out.println("allowed GET /items/1 -> " + allowedStatus + ", denied -> " + deniedStatus);
    checks.verify("allowed request through the sidecar -> 200", allowedStatus == 200, "got " + allowedStatus);
    checks.verify("denied request through the sidecar -> 403", deniedStatus == 403, "got " + deniedStatus);

    // the module's own call out, from inside its container, to the address the chart gives it (x-okapi-url)
    platform.others().resetRequests();
    var egress = Podman.run(60, "exec", POD + "-" + TestModule.NAME, "/bin/busybox", "wget", "-q", "-S", "-O", "-",
      "--header", "x-okapi-tenant: alpha", "--header", "x-okapi-token: " + allowed, sidecarUrl + "/users/1");
    var reached = platform.others().findAll(com.github.tomakehurst.wiremock.client.WireMock
      .getRequestedFor(com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo("/users/1")));
    System.out.println("egress from the module's container, GET " + sidecarUrl + "/users/1: exit " + egress.exit()
      + ", " + egress.output().lines().filter(line -> line.contains("HTTP/") || line.startsWith("{"))
        .map(String::trim).toList()
      + "; mod-users received " + reached.size() + " call(s), with a token: "
      + reached.stream().allMatch(request -> request.containsHeader("x-okapi-token")));
    checks.verify("egress call from the module through SIDECAR_URL " + sidecarUrl + " is answered 200",
      egress.exit() == 0 && egress.output().contains(" 200 ") && reached.size() == 1, egress.output().trim());
  }

  /** RSS of the sidecar's JVM idle, then under concurrent GETs and 9 MB uploads, against the chart's limit. */
  private void memory(TestPlatform platform, String base) throws Exception {
    long pid = Podman.pid(POD + "-sidecar");
    var idle = Podman.status(pid);
    System.out.println("sidecar JVM (pid " + pid + ") idle: VmRSS " + Podman.field(idle, "VmRSS") + ", VmHWM "
      + Podman.field(idle, "VmHWM"));
    var alpha = platform.alpha();
    var token = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
    var statuses = new ConcurrentHashMap<String, AtomicInteger>();
    long started = System.nanoTime();
    var body = new byte[UPLOAD_BYTES];
    // both at once, each from its own thread (the common pool may have a single one on two cores)
    try (var senders = Executors.newFixedThreadPool(2)) {
      var gets = CompletableFuture.runAsync(() -> load(GETS, GET_CONCURRENCY,
        () -> HttpRequest.newBuilder(URI.create(base + "/items/1")).GET(), "GET /items/1", token, statuses), senders);
      var uploads = CompletableFuture.runAsync(() -> load(UPLOADS, UPLOADS,
        () -> HttpRequest.newBuilder(URI.create(base + "/users/import")).POST(HttpRequest.BodyPublishers
          .ofByteArray(body)),
        "egress POST /users/import 9 MB", token, statuses), senders);
      CompletableFuture.allOf(gets, uploads).get(600, TimeUnit.SECONDS);
    }
    // WireMock keeps what it received: 900 MB of bodies this process need not hold
    platform.others().resetRequests();
    var after = Podman.status(pid);
    System.out.printf("load (%d GETs at %d concurrent, %d concurrent 9 MB uploads) in %.1f s: %s%n", GETS,
      GET_CONCURRENCY, UPLOADS, (System.nanoTime() - started) / 1e9, new TreeMap<>(statuses));
    long peak = kib(Podman.field(after, "VmHWM"));
    System.out.printf("sidecar JVM after the load: VmRSS %s, peak (VmHWM) %d KiB = %.1f MiB: headroom %.1f MiB under"
      + " the values' %d MiB limit, %.1f MiB under the chart's 256 MiB%n", Podman.field(after, "VmRSS"), peak,
      peak / 1024.0, (limitBytes / 1024 - peak) / 1024.0, limitBytes >> 20, (CHART_LIMIT_BYTES / 1024 - peak) / 1024.0);
    var oom = Podman.run(10, "inspect", "--format", "{{.State.Status}} {{.State.OOMKilled}}", POD + "-sidecar").output()
      .trim();
    checks.verify("the sidecar survived the load within its " + (limitBytes >> 20) + "Mi limit (" + oom + ")",
      oom.equals("running false"), oom);
    checks.verify("peak RSS below the chart's own 256Mi limit too", peak * 1024 < CHART_LIMIT_BYTES, peak + " KiB");
    // the load is there for the RSS: on two cores shared with other builds some requests time out or meet a slow
    // Keycloak (503) or target (502); the counts are printed, and each kind must have gone through
    checks.verify("the load went through the sidecar (GETs and uploads answered 200)", statuses.containsKey(
      "GET /items/1 200") && statuses.containsKey("egress POST /users/import 9 MB 200"), statuses.toString());
  }

  /** {@code count} requests, at most {@code concurrency} in flight; each status counted under {@code kind}. */
  private void load(int count, int concurrency, Supplier<HttpRequest.Builder> request, String kind, String token,
    Map<String, AtomicInteger> statuses) {
    var permits = new Semaphore(concurrency);
    var all = new ArrayList<CompletableFuture<?>>();
    for (int i = 0; i < count; i++) {
      permits.acquireUninterruptibly();
      all.add(http.sendAsync(request.get().timeout(Duration.ofSeconds(120)).header("x-okapi-tenant", "alpha")
        .header("x-okapi-token", token).build(), HttpResponse.BodyHandlers.discarding())
        .handle((response, error) -> {
          permits.release();
          // a CompletionException says nothing: its cause names what the client met
          var outcome = error == null
            ? String.valueOf(response.statusCode())
            : (error.getCause() == null ? error : error.getCause()).getClass().getSimpleName();
          statuses.computeIfAbsent(kind + " " + outcome, key -> new AtomicInteger()).incrementAndGet();
          return null;
        }));
    }
    CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
  }

  private static long kib(String field) {
    return Long.parseLong(field.replaceAll("[^0-9]", ""));
  }

  /**
   * A real prometheus with the shipped scrape job, its kubernetes_sd replaced by a file of the targets
   * kubernetes_sd's pod role gives the chart's pod (one per declared container port, one port-free for the
   * sidecar, which declares none), with the same meta labels; the job's relabelling is the shipped one.
   */
  @SuppressWarnings("unchecked")
  private static PrometheusProcess startPrometheus(Path dir, Map<String, Object> deployment, int managementPort,
    int modulePort,
    int httpPort) throws IOException {
    var template = (Map<String, Object>) ((Map<String, Object>) deployment.get("spec")).get("template");
    var metadata = (Map<String, Object>) template.get("metadata");
    var common = new JsonObject().put("__meta_kubernetes_namespace", NAMESPACE)
      .put("__meta_kubernetes_pod_name", POD).put("__meta_kubernetes_pod_ip", "127.0.0.1");
    ((Map<String, Object>) metadata.get("labels")).forEach((key, value) -> common.put(
      "__meta_kubernetes_pod_label_" + key.replaceAll("[^A-Za-z0-9]", "_"), value));
    ((Map<String, Object>) metadata.get("annotations")).forEach((key, value) -> common.put(
      "__meta_kubernetes_pod_annotation_" + key.replaceAll("[^A-Za-z0-9]", "_"), value));
    // the chart declares the module's port and the sidecar's 8082 on the module's container
    var targets = new JsonArray()
      .add(target(common, "127.0.0.1:" + modulePort, TestModule.NAME, "http", modulePort))
      .add(target(common, "127.0.0.1:" + httpPort, TestModule.NAME, "sidecar", httpPort))
      .add(target(common, "127.0.0.1", "sidecar", null, 0));
    Files.writeString(dir.resolve("targets.json"), targets.encodePrettily());
    System.out.println("local run: prometheus reads the targets kubernetes_sd (role pod) would give the chart's pod"
      + " in namespace " + NAMESPACE + " from a file: 3 (module container: ports http and sidecar; sidecar"
      + " container: port-free)");
    var job = new LinkedHashMap<>(((List<Map<String, Object>>) new Yaml().load(Files.readString(SCRAPE_JOB))).get(0));
    job.remove("kubernetes_sd_configs");
    job.put("file_sd_configs", List.of(Map.of("files", List.of(dir.resolve("targets.json").toString()))));
    var config = new LinkedHashMap<String, Object>();
    config.put("global", Map.of("scrape_interval", "1s", "evaluation_interval", "1s"));
    config.put("rule_files", List.of(RULES.toAbsolutePath().toString()));
    config.put("scrape_configs", List.of(job));
    return PrometheusProcess.start(dir, new Yaml().dump(config));
  }

  private static JsonObject target(JsonObject common, String address, String container, String portName, int port) {
    var labels = common.copy().put("__address__", address).put("__meta_kubernetes_pod_container_name", container);
    if (portName != null) {
      labels.put("__meta_kubernetes_pod_container_port_name", portName)
        .put("__meta_kubernetes_pod_container_port_number", String.valueOf(port));
    }
    return new JsonObject().put("targets", new JsonArray().add(address)).put("labels", labels);
  }

  private void scrape(TestPlatform platform) throws Exception {
    JsonArray up = new JsonArray();
    for (int i = 0; i < 120 && up.isEmpty(); i++) {
      try {
        up = query("up{job=\"folio-sidecars\"} == 1");
      } catch (IOException e) {
        // not listening yet
      }
      if (up.isEmpty()) {
        Thread.sleep(500);
      }
    }
    checks.verify("prometheus scrapes the sidecar through the shipped job", !up.isEmpty(), "no target up");
    var targets = get("/api/v1/targets").getJsonObject("data");
    var active = targets.getJsonArray("activeTargets");
    for (var one : active) {
      var target = (JsonObject) one;
      System.out.println("prometheus target: " + target.getString("scrapeUrl") + " health " + target.getString(
        "health") + " labels " + target.getJsonObject("labels").encode());
    }
    System.out.println("prometheus dropped targets (the module container's ports): "
      + targets.getJsonArray("droppedTargets").size());
    checks.verify("one active target, the sidecar container's", active.size() == 1, active.encode());
    var labels = active.isEmpty() ? new JsonObject() : ((JsonObject) active.getValue(0)).getJsonObject("labels");
    checks.verify("the target carries namespace, pod, container and service (the module)",
      NAMESPACE.equals(labels.getString(
        "namespace")) && POD.equals(labels.getString("pod")) && "sidecar".equals(labels.getString("container"))
        && TestModule.NAME.equals(labels.getString("service")),
      labels.encode());
    var series = query("sidecar_requests_total{job=\"folio-sidecars\",direction=\"ingress\",status=\"200\"}");
    checks.verify("sidecar_requests_total scraped with the pod's labels", !series.isEmpty()
      && series.getJsonObject(0).getJsonObject("metric").containsKey("pod"), series.encode());

    // one evaluation cycle at least, so every rule has a health
    Thread.sleep(3_000);
    int rules = 0;
    var unhealthy = new ArrayList<String>();
    for (var group : get("/api/v1/rules").getJsonObject("data").getJsonArray("groups")) {
      for (var rule : ((JsonObject) group).getJsonArray("rules")) {
        rules++;
        var loaded = (JsonObject) rule;
        if (!"ok".equals(loaded.getString("health"))) {
          unhealthy.add(loaded.getString("name") + ": " + loaded.getString("lastError", loaded.getString("health")));
        }
      }
    }
    System.out.println("prometheus loaded " + rules + " rules of " + RULES + "; not healthy: " + unhealthy);
    checks.verify("every alert rule loaded and evaluating (health ok)", rules > 0 && unhealthy.isEmpty(),
      unhealthy.toString());

    // a malformed platform event: SidecarEventsMalformed has no 'for', so it fires on the next evaluations
    platform.events().send("folio.discovery", "{not json");
    System.out.println("sent a malformed event to folio.discovery");
    JsonArray firing = new JsonArray();
    for (int i = 0; i < 120 && firing.isEmpty(); i++) {
      firing = query("ALERTS{alertname=\"SidecarEventsMalformed\",alertstate=\"firing\"}");
      if (firing.isEmpty()) {
        Thread.sleep(500);
      }
    }
    if (!firing.isEmpty()) {
      System.out.println("alert firing: " + firing.getJsonObject(0).getJsonObject("metric").encode());
    }
    checks.verify("alert SidecarEventsMalformed fires on the chart pod's metrics", !firing.isEmpty(),
      "not firing in 60 s: " + query("sidecar_events_total").encode());
  }

  private JsonArray query(String expr) throws IOException, InterruptedException {
    return prometheus.query(expr);
  }

  private JsonObject get(String path) throws IOException, InterruptedException {
    return prometheus.get(path);
  }

  private static void removePod() {
    try {
      Podman.run(60, "pod", "rm", "-f", "-t", "0", POD);
    } catch (IOException e) {
      System.err.println("could not remove pod " + POD + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
