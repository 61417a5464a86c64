package org.folio.sidecar.testkit;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.yaml.snakeyaml.Yaml;

/**
 * Proves the names the alert rules and the dashboard use: starts the demo's platform and sidecar, a real
 * {@code prometheus} (loopback only, a temporary directory, stopped at the end) scraping the sidecar's
 * management port with the rules loaded, drives a little traffic (allowed, denied, unknown path, bad token,
 * egress, a Keycloak outage through the counting hop), then asks Prometheus' HTTP API: every selector of every
 * rule and dashboard query matches series, every label they group by exists, every rule evaluates without
 * error, and no series carries a label a caller controls or one with unbounded values.
 * {@code --screenshot FILE} also saves Prometheus' graph page of the key panels, drawn by headless Chromium.
 * Run by ops/live-scrape.sh.
 */
public final class LiveScrape {

  static final Path RULES = Path.of("ops/prometheus/sidecar-rules.yaml");
  static final Path DASHBOARD = Path.of("ops/grafana/sidecar-dashboard.json");
  static final Path OPERATIONS = Path.of("docs/operations.md");
  private static final Path SIDECAR_LOG = Path.of("testkit/target/live-scrape-sidecar.log");
  // a metric name of the sidecar's families, or a selector by __name__
  private static final Pattern SELECTOR = Pattern.compile(
    "(?<![\\w:])((?:sidecar|cache|jvm|process)_[A-Za-z0-9_:]*)(\\{[^}]*})?|(?<![\\w:])(\\{__name__[^}]*})");
  private static final Pattern GROUPING = Pattern.compile("\\b(?:by|without|on|ignoring)\\s*\\(([^)]*)\\)");
  private static final Set<String> TARGET_LABELS = Set.of("job", "instance", "le");
  private static final Set<String> CALLER_LABELS = Set.of("user", "user_id", "userid", "token", "session",
    "session_id", "path", "uri", "url", "request_id", "requestid");
  // a label with more values than this is not bounded by the platform's size but by what callers send
  private static final int MAX_LABEL_VALUES = 100;
  private static final List<String> SCREENSHOT_PANELS = List.of("Requests by status", "Added latency",
    "Decision-cache hit ratio", "Keycloak decisions", "Token acquisitions");

  private final Checks checks = new Checks();
  private PrometheusProcess prometheus;

  public static void main(String[] args) {
    int exit;
    try {
      exit = new LiveScrape().run(args);
    } catch (Exception e) {
      e.printStackTrace();
      exit = 1;
    }
    // WireMock, Kafka and Vert.x threads would keep the JVM alive
    System.exit(exit);
  }

  private int run(String[] args) throws Exception {
    var screenshot = args.length == 2 && "--screenshot".equals(args[0]) ? Path.of(args[1]) : null;
    var platform = TestPlatform.get();
    var dir = Files.createTempDirectory("live-scrape");
    // its log (a line per request) goes to a file kept after the run
    System.out.println("sidecar's log: " + SIDECAR_LOG);
    try (var sidecar = SidecarProcess.start(platform, ProcessBuilder.Redirect.to(SIDECAR_LOG.toFile()))) {
      sidecar.awaitLive();
      try (var server = startPrometheus(dir, sidecar.managementUrl())) {
        prometheus = server;
        awaitPrometheus();
        traffic(platform, sidecar.baseUrl());
        adminCall(platform, sidecar.managementUrl());
        check();
        if (screenshot != null) {
          screenshot(dir, screenshot);
        }
      }
    } finally {
      try (Stream<Path> paths = Files.walk(dir)) {
        paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      }
    }
    return checks.summary("live-scrape");
  }

  private static PrometheusProcess startPrometheus(Path dir, String target) throws IOException {
    return PrometheusProcess.start(dir, String.join("\n",
      "global: {scrape_interval: 1s, evaluation_interval: 1s}",
      "rule_files: ['" + RULES.toAbsolutePath() + "']",
      "scrape_configs:",
      "  - job_name: sidecar",
      "    metrics_path: /q/metrics",
      // the Prometheus Operator's target labels, which the alerts name a pod by and the dashboard filters on
      "    static_configs: [{targets: ['" + URI.create(target).getAuthority() + "'],",
      "      labels: {namespace: live-scrape, service: mod-items, pod: mod-items-0}}]", ""));
  }

  private void awaitPrometheus() throws InterruptedException {
    for (int i = 0; i < 60; i++) {
      try {
        if (!query("up{job=\"sidecar\"} == 1").isEmpty()) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(500);
    }
    throw new IllegalStateException("prometheus did not scrape the sidecar");
  }

  /** About 30 s of requests of every kind the dashboard shows, a Keycloak outage of 8 s among them. */
  private void traffic(TestPlatform platform, String base) throws Exception {
    var alpha = platform.alpha();
    var beta = platform.beta();
    var allowed = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
    var denied = platform.tokens().login(alpha, alpha.denied()).getString("access_token");
    var betaAllowed = platform.tokens().login(beta, beta.allowed()).getString("access_token");
    var statuses = new TreeMap<String, Integer>();
    for (int round = 0; round < 30; round++) {
      if (round == 12) {
        platform.keycloakHop().cut();
      }
      if (round == 20) {
        platform.keycloakHop().restore();
      }
      count(statuses, "allowed", call(base + "/items/1", "alpha", allowed));
      count(statuses, "denied", call(base + "/items/1", "alpha", denied));
      // during the outage this user's grant is not cached yet: a decision Keycloak cannot give
      count(statuses, "beta", call(base + "/items/" + round, "beta", round >= 12 ? betaAllowed : null));
      count(statuses, "unknown-path", call(base + "/no-such-path", "alpha", allowed));
      count(statuses, "bad-token", call(base + "/items/1", "alpha", "not.a.token"));
      // as the module calls another module for its caller: with the caller's token; the sidecar adds its own
      count(statuses, "egress", call(base + "/users/1", "alpha", allowed));
      count(statuses, "egress-unknown-tenant", call(base + "/users/1", "nosecret", null));
      Thread.sleep(1_000);
    }
    System.out.println("traffic (request kind, status: count): " + statuses);
    // two more scrapes, so every counter's last value is in
    Thread.sleep(2_500);
  }

  /** An operator's flush of one user through the admin API, so its counter is scraped too. */
  private void adminCall(TestPlatform platform, String management) throws Exception {
    var alpha = platform.alpha();
    var user = Tokens.claims(platform.tokens().login(alpha, alpha.allowed()).getString("access_token"))
      .getString("user_id");
    var request = HttpRequest.newBuilder(URI.create(management + "/admin/cache/flush?tenant=alpha&user=" + user))
      .header("authorization", "Bearer " + TestPlatform.ADMIN_TOKEN).POST(HttpRequest.BodyPublishers.noBody())
      .timeout(Duration.ofSeconds(10)).build();
    var response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    verify("admin API flush answers 200", response.statusCode() == 200, response.body());
    Thread.sleep(2_500);
  }

  private static void count(Map<String, Integer> statuses, String kind, int status) {
    statuses.merge(kind + " " + status, 1, Integer::sum);
  }

  private int call(String url, String tenant, String token) throws IOException, InterruptedException {
    return checks.status(url, tenant, token);
  }

  private void check() throws Exception {
    var expressions = new LinkedHashMap<String, String>();
    rules().forEach(rule -> expressions.put("rule " + rule.get("alert"), String.valueOf(rule.get("expr"))));
    panels().forEach((title, exprs) -> {
      for (int i = 0; i < exprs.size(); i++) {
        expressions.put("panel \"" + title + "\" query " + (i + 1), exprs.get(i));
      }
    });
    for (var entry : expressions.entrySet()) {
      checkExpression(entry.getKey(), entry.getValue());
    }
    for (var group : get("/api/v1/rules").getJsonObject("data").getJsonArray("groups")) {
      for (var rule : ((JsonObject) group).getJsonArray("rules")) {
        var loaded = (JsonObject) rule;
        verify("rule " + loaded.getString("name") + " evaluates in Prometheus",
          "ok".equals(loaded.getString("health")), loaded.getString("lastError", ""));
      }
    }
    checkLabels();
  }

  private void checkExpression(String where, String expr) throws Exception {
    var labelsSeen = new TreeSet<String>();
    var selectors = SELECTOR.matcher(expr).results().map(match -> match.group(3) != null
      ? match.group(3)
      : match.group(1) + (match.group(2) == null ? "" : match.group(2))).distinct().toList();
    verify(where + " names a metric", !selectors.isEmpty(), expr);
    for (var selector : selectors) {
      var series = series(selector);
      verify(where + ": " + selector + " exists", !series.isEmpty(), "no series");
      series.forEach(one -> labelsSeen.addAll(((JsonObject) one).fieldNames()));
    }
    var grouping = GROUPING.matcher(expr).results()
      .flatMap(match -> Stream.of(match.group(1).split(","))).map(String::trim)
      .filter(label -> !label.isEmpty() && !TARGET_LABELS.contains(label)).distinct().toList();
    for (var label : grouping) {
      verify(where + ": label " + label + " exists", labelsSeen.contains(label), "labels seen: " + labelsSeen);
    }
    var result = get("/api/v1/query?query=" + encode(expr));
    verify(where + " evaluates", "success".equals(result.getString("status")), result.encode());
  }

  /** No label a caller controls, and none with more values than the platform's size explains. */
  private void checkLabels() throws Exception {
    var values = new TreeMap<String, Set<String>>();
    var families = new TreeMap<String, Set<String>>();
    for (var one : series("{job=\"sidecar\"}")) {
      var labels = (JsonObject) one;
      labels.forEach(label -> values.computeIfAbsent(label.getKey(), key -> new TreeSet<>())
        .add(String.valueOf(label.getValue())));
      var name = labels.getString("__name__");
      if (name.startsWith("sidecar_") || name.startsWith("cache_")) {
        var names = families.computeIfAbsent(name, key -> new TreeSet<>());
        labels.fieldNames().stream().filter(label -> !label.startsWith("__") && !TARGET_LABELS.contains(label))
          .forEach(label -> names.add(label + "=" + labels.getString(label)));
      }
    }
    System.out.println("series scraped (name: label=value seen):");
    families.forEach((name, labels) -> System.out.println("  " + name + " " + labels));
    var sizes = new TreeMap<String, Integer>();
    values.forEach((label, set) -> sizes.put(label, set.size()));
    System.out.println("labels (name: distinct values): " + sizes);
    for (var label : values.keySet()) {
      verify("no caller-controlled label: " + label, !CALLER_LABELS.contains(label), "");
      verify("label " + label + " is bounded", label.equals("__name__") || values.get(label).size() <= MAX_LABEL_VALUES,
        values.get(label).size() + " values");
    }
    checkDocumented(families.keySet());
  }

  /**
   * docs/operations.md's metrics table names every family the scrape returned: a family's histogram or summary
   * parts ({@code _bucket}, {@code _count}, {@code _sum}, {@code _max}) by the first of them.
   */
  private void checkDocumented(Set<String> families) throws IOException {
    var doc = Files.readString(OPERATIONS);
    var table = doc.substring(doc.indexOf("### Metrics"), doc.indexOf("### Alerts"));
    for (var family : families) {
      var base = family.replaceAll("_(bucket|count|sum|max)$", "");
      verify("docs/operations.md's metrics table names " + family, table.contains("`" + base), "");
    }
  }

  /**
   * Prometheus' own graph page, one per key panel (its queries as one graph, each series labelled with the
   * query's legend), drawn by headless Chromium and stacked into one PNG.
   */
  private void screenshot(Path dir, Path out) throws Exception {
    var legends = legends();
    var images = new ArrayList<BufferedImage>();
    for (var entry : panels().entrySet()) {
      if (!SCREENSHOT_PANELS.contains(entry.getKey())) {
        continue;
      }
      var queries = entry.getValue();
      var graph = new StringBuilder();
      for (int i = 0; i < queries.size(); i++) {
        // the run lasts about a minute: a 15 s rate window shows its shape where 5 m would smear it
        var expr = queries.get(i).replace("[5m]", "[15s]");
        graph.append(i == 0 ? "" : " or ").append(queries.size() == 1
          ? expr
          : "label_replace(" + expr + ", \"query\", \"" + legends.get(entry.getKey()).get(i) + "\", \"\", \"\")");
      }
      var url = prometheus.url() + "/graph?g0.expr=" + encode(graph.toString()) + "&g0.tab=0&g0.range_input=2m";
      var file = dir.resolve("panel-" + images.size() + ".png");
      var chromium = new ProcessBuilder("chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--hide-scrollbars", "--user-data-dir=" + dir.resolve("chromium"), "--window-size=1200,1000",
        "--virtual-time-budget=15000", "--screenshot=" + file, url)
        .redirectErrorStream(true).redirectOutput(dir.resolve("chromium.log").toFile()).start();
      boolean done = chromium.waitFor(90, TimeUnit.SECONDS);
      if (!done) {
        chromium.destroyForcibly();
      }
      verify("screenshot of panel " + entry.getKey(), done && Files.exists(file), "chromium did not draw the page");
      if (Files.exists(file)) {
        images.add(ImageIO.read(file.toFile()));
      }
    }
    if (images.isEmpty()) {
      return;
    }
    // tall enough for the graph and its legend; Prometheus' title bar and query-history line are left out of each
    // page but the first, its query box (which names the panel's queries) is kept
    int header = 100;
    int height = images.stream().mapToInt(BufferedImage::getHeight).sum() - header * (images.size() - 1);
    var sheet = new BufferedImage(images.get(0).getWidth(), height, BufferedImage.TYPE_INT_RGB);
    var graphics = sheet.createGraphics();
    int y = 0;
    for (int i = 0; i < images.size(); i++) {
      var image = images.get(i);
      int skip = i == 0 ? 0 : header;
      graphics.drawImage(image.getSubimage(0, skip, image.getWidth(), image.getHeight() - skip), 0, y, null);
      y += image.getHeight() - skip;
    }
    graphics.dispose();
    Files.createDirectories(out.toAbsolutePath().getParent());
    ImageIO.write(sheet, "png", out.toFile());
    System.out.println("screenshot of " + images.size() + " panels: " + out);
  }

  /** Panel title to its queries' legends, or their letters where the legend is a template. */
  private static Map<String, List<String>> legends() throws IOException {
    var legends = new LinkedHashMap<String, List<String>>();
    for (var item : new JsonObject(Files.readString(DASHBOARD)).getJsonArray("panels")) {
      var panel = (JsonObject) item;
      legends.put(panel.getString("title"), panel.getJsonArray("targets", new JsonArray()).stream()
        .map(target -> (JsonObject) target).map(target -> {
          var legend = target.getString("legendFormat", "");
          return legend.isEmpty() || legend.contains("{{") ? target.getString("refId") : legend;
        }).toList());
    }
    return legends;
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> rules() throws IOException {
    var document = (Map<String, Object>) new Yaml().load(Files.readString(RULES));
    var rules = new ArrayList<Map<String, Object>>();
    for (var group : (List<Map<String, Object>>) document.get("groups")) {
      rules.addAll((List<Map<String, Object>>) group.get("rules"));
    }
    return rules;
  }

  /** Panel title to its queries, rows' panels included. */
  static Map<String, List<String>> panels() throws IOException {
    var panels = new LinkedHashMap<String, List<String>>();
    collect(new JsonObject(Files.readString(DASHBOARD)).getJsonArray("panels"), panels);
    return panels;
  }

  private static void collect(JsonArray list, Map<String, List<String>> panels) {
    for (var item : list) {
      var panel = (JsonObject) item;
      var targets = panel.getJsonArray("targets", new JsonArray());
      if (!targets.isEmpty()) {
        // the dashboard's variables at "All"
        panels.put(panel.getString("title"), targets.stream().map(target -> ((JsonObject) target).getString("expr")
          .replace("$namespace", ".*").replace("$module", ".*").replace("$pod", ".*")).toList());
      }
      collect(panel.getJsonArray("panels", new JsonArray()), panels);
    }
  }

  private JsonArray series(String selector) throws IOException, InterruptedException {
    return prometheus.series(selector);
  }

  private JsonArray query(String expr) throws IOException, InterruptedException {
    return prometheus.query(expr);
  }

  private JsonObject get(String path) throws IOException, InterruptedException {
    return prometheus.get(path);
  }

  private void verify(String what, boolean ok, String detail) {
    checks.verify(what, ok, detail);
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
