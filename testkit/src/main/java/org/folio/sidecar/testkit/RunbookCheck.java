package org.folio.sidecar.testkit;

import com.github.tomakehurst.wiremock.client.WireMock;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Every command of docs/runbooks.md (and of docs/operations.md's troubleshooting) run against the demo's platform and sidecar (TestPlatform and SidecarProcess, as
 * {@code ./demo.sh} starts them): the helpers of the block marked {@code sh runbook-helpers}, then each command of
 * each block marked {@code sh runbook-check}, in the order of the document, each in its own bash with the
 * documented variables set to the demo's addresses and credential. A command passes when it exits 0 and its output
 * holds every {@code # prints: } line that follows it ({@code …} stands for anything in between); one that needs
 * Kubernetes ({@code kubectl}, or a {@code $NAMESPACE} whose pods a script finds with it) is listed as skipped.
 * A section can need a state first (an outage for SidecarKeycloakUnreachable, a slow decision for
 * SidecarKeycloakDecisionsSlow, failing egress targets, an egress call without its secret, a tenant whose service
 * token Keycloak refuses, a malformed event): {@link #prepare} makes it, and sets what the alert's labels would
 * name (its tenant). Run by ops/runbook-check.sh.
 */
public final class RunbookCheck {

  static final Path RUNBOOKS = Path.of("docs/runbooks.md");
  // the documents whose checked blocks run, in this order; the helpers are the runbooks'
  static final List<Path> DOCUMENTS = List.of(RUNBOOKS, Path.of("docs/operations.md"));
  static final String HELPERS = "```sh runbook-helpers";
  static final String CHECKED = "```sh runbook-check";
  static final String PRINTS = "# prints: ";
  private static final Path SIDECAR_LOG = Path.of("testkit/target/runbook-check-sidecar.log");
  private static final int COMMAND_BOUND_SECONDS = 60;
  /** How long Keycloak holds the slow decision: well above the alert's 50 ms, however fast the machine. */
  private static final long SLOW_DECISION_MILLIS = 300;
  /** Entitled by the demo's mgr-tenant-entitlements, but its module-access secret is not in the demo's store. */
  private static final String TENANT_WITHOUT_SECRET = "svc01";
  /** The tenant whose module-access client secret is rotated in Keycloak; no earlier call needed its token. */
  private static final String TENANT_REFUSED = "beta";

  /** One command of a runbook and what the runbook says it prints. */
  record Command(String section, String text, List<String> prints) {
  }

  private final Checks checks = new Checks();
  private final List<String> skipped = new ArrayList<>();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  // the demo, set once it runs: what the preparations act on
  private TestPlatform platform;
  private SidecarProcess sidecar;
  private String userToken;
  private String userId;

  public static void main(String[] args) {
    int exit;
    try {
      exit = new RunbookCheck().run();
    } catch (Exception e) {
      e.printStackTrace();
      exit = 1;
    }
    // WireMock, Kafka and Vert.x threads would keep the JVM alive
    System.exit(exit);
  }

  private int run() throws Exception {
    var helpers = helpers(Files.readAllLines(RUNBOOKS));
    var commands = new ArrayList<Command>();
    for (var document : DOCUMENTS) {
      var found = commands(Files.readAllLines(document));
      System.out.println("[runbook-check] " + found.size() + " commands in " + document);
      commands.addAll(found);
    }
    platform = TestPlatform.get();
    // the probe every second instead of every 5 s, so the outage's lines come without a long wait; REQUEST_TIMEOUT
    // set (to upstream's default) as folio-helm-v2 sets it, which the GatewayTimeout runbook reads back
    try (var started = SidecarProcess.start(platform, ProcessBuilder.Redirect.to(SIDECAR_LOG.toFile()),
      Map.of("SIDECAR_HEALTH_PROBE_INTERVAL", "1s", "REQUEST_TIMEOUT", "60000"))) {
      sidecar = started;
      sidecar.awaitReady(waiting -> System.out.println("[runbook-check] still waiting: " + waiting));
      var alpha = platform.alpha();
      var token = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
      userToken = token;
      userId = Tokens.claims(token).getString("user_id");
      // the user's grant cached, as on a sidecar in use
      int first = checks.allowedStatus(sidecar.baseUrl() + "/items/1", "alpha", token);
      checks.verify("the demo's allowed request answers 200 before the runbooks", first == 200, "got " + first);
      var variables = new LinkedHashMap<String, String>();
      variables.put("SIDECAR_ADMIN", URI.create(sidecar.managementUrl()).getAuthority());
      variables.put("SIDECAR_HTTP", URI.create(sidecar.baseUrl()).getAuthority());
      variables.put("TENANT", "alpha");
      variables.put("USER_ID", userId);
      variables.put("REQUEST_PATH", "/items/1");
      variables.put("KC_URL", platform.sidecarConfig().get("kc.url"));
      variables.put("SIDECAR_LOG_FILE", SIDECAR_LOG.toString());
      System.out.println("[runbook-check] variables: " + variables + ", SIDECAR_ADMIN_TOKEN and TOKEN (the user's)");
      variables.put("SIDECAR_ADMIN_TOKEN", TestPlatform.ADMIN_TOKEN);
      variables.put("TOKEN", token);
      // kubectl logs has no pod here: the demo's sidecar writes its log to a file
      var substitution = "log_of_sidecar() { cat \"$SIDECAR_LOG_FILE\"; }";
      System.out.println("[runbook-check] substituted: " + substitution);
      var prelude = helpers + "\n" + substitution + "\n";
      String section = "";
      Map<String, String> sectionVariables = variables;
      for (var command : commands) {
        if (!command.section().equals(section)) {
          section = command.section();
          System.out.println("== " + section);
          var labels = prepare(section);
          if (!labels.isEmpty()) {
            System.out.println("[runbook-check] as the alert's labels name them: " + labels);
          }
          sectionVariables = new LinkedHashMap<>(variables);
          sectionVariables.putAll(labels);
        }
        run(command, prelude, sectionVariables);
      }
    }
    skipped.forEach(skip -> System.out.println("skipped: " + skip));
    System.out.println("[runbook-check] " + commands.size() + " commands: " + (commands.size() - skipped.size())
      + " run, " + skipped.size() + " skipped");
    return checks.summary("runbook-check");
  }

  /**
   * The state a section's commands need and the demo does not have by itself; returns the variables the section's
   * commands take from the alert (e.g. its tenant), in place of the demo's.
   */
  private Map<String, String> prepare(String section) throws Exception {
    switch (section) {
      case "SidecarKeycloakUnreachable" -> {
        System.out.println("[runbook-check] Keycloak cut off, then restored, as the runbook's outage");
        platform.keycloakHop().cut();
        await("the sidecar logs Keycloak's loss", () -> log().contains("Keycloak is unreachable: "));
        platform.keycloakHop().restore();
        await("the sidecar logs Keycloak's return", () -> log().contains("Keycloak is reachable again after "));
      }
      case "SidecarKeycloakDecisionsSlow" -> slowDecision();
      case "SidecarEgressTargetErrors" -> {
        System.out.println("[runbook-check] egress targets failing: mod-users answering 500, mod-down (where nothing "
          + "listens) refusing; then mod-users answering again");
        platform.others().stubFor(WireMock.get(WireMock.urlPathMatching("/users/.*")).atPriority(1)
          .willReturn(WireMock.aResponse().withStatus(500)));
        expect("an egress call to mod-users while it fails", 500, egress("alpha", "/users/1", userToken));
        expect("an egress call to mod-down", 502, egress("alpha", "/down/1", userToken));
        platform.resetModule();
        expect("an egress call to mod-users once it answers again", 200, egress("alpha", "/users/1", userToken));
      }
      case "SidecarEgressOwnFaults" -> {
        System.out.println("[runbook-check] an egress call for " + TENANT_WITHOUT_SECRET
          + ", entitled but without its module-access secret in the demo's secret store");
        // the sidecar passes a module's user token on unread, and this tenant has no users here: the demo user's
        expect("an egress call without the tenant's secret", 500,
          egress(TENANT_WITHOUT_SECRET, "/users/1", userToken));
      }
      case "SidecarTokenAcquisitionFailing" -> {
        System.out.println("[runbook-check] " + TENANT_REFUSED + "'s module-access client secret rotated in Keycloak, "
          + "not in the secret store: its egress call refused; then the secret restored in Keycloak, and one more");
        var beta = platform.beta();
        var user = platform.tokens().login(beta, beta.allowed()).getString("access_token");
        var realms = new FolioRealms(platform.keycloakAdmin());
        realms.setServiceClientSecret(TENANT_REFUSED, "rotated-" + UUID.randomUUID());
        try {
          expect("an egress call whose service token Keycloak refuses", 401, egress(TENANT_REFUSED, "/users/1", user));
        } finally {
          realms.setServiceClientSecret(TENANT_REFUSED, TestTenant.SERVICE_SECRET);
        }
        expect("an egress call once the secrets agree", 200, egress(TENANT_REFUSED, "/users/1", user));
        return Map.of("TENANT", TENANT_REFUSED);
      }
      case "SidecarEventsMalformed" -> {
        System.out.println("[runbook-check] a malformed event sent to folio.discovery");
        platform.events().send("folio.discovery", "{not json");
        await("the sidecar skips it", () -> log().contains("Skipped malformed event at "));
      }
      default -> {
        // the demo as it is
      }
    }
    return Map.of();
  }

  /**
   * A decision Keycloak is slow to make: the user's grants flushed, the next request's UMA call held at the hop
   * for {@link #SLOW_DECISION_MILLIS}, then answered.
   */
  private void slowDecision() throws Exception {
    System.out.println("[runbook-check] Keycloak slow: the user flushed, the next decision held " + SLOW_DECISION_MILLIS
      + " ms at the hop");
    expect("the user's flush", 200, admin("POST", "/admin/cache/flush?tenant=alpha&user=" + userId));
    var hop = platform.keycloakHop();
    var request = new FutureTask<>(() -> checks.status(sidecar.baseUrl() + "/items/1", "alpha", userToken));
    hop.holdUma();
    try {
      Thread.ofVirtual().start(request);
      await("the decision call reaches Keycloak", () -> hop.heldUma() > 0);
      Thread.sleep(SLOW_DECISION_MILLIS);
    } finally {
      hop.releaseUma();
    }
    expect("the request its slow decision allowed", 200, request.get(2, TimeUnit.MINUTES));
  }

  /**
   * A call the module makes to another module through its sidecar (from loopback, as in its pod) for a user whose
   * token it passes on (the demo's module has no system user to call without one); its status.
   */
  private int egress(String tenant, String path, String token) throws IOException, InterruptedException {
    return checks.status(sidecar.baseUrl() + path, tenant, token);
  }

  /** An admin API call with the admin credential; its status. */
  private int admin(String method, String path) throws IOException, InterruptedException {
    var request = HttpRequest.newBuilder(URI.create(sidecar.managementUrl() + path)).timeout(Duration.ofMinutes(1))
      .header("authorization", "Bearer " + TestPlatform.ADMIN_TOKEN)
      .method(method, HttpRequest.BodyPublishers.noBody()).build();
    return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  private void expect(String what, int status, int actual) {
    checks.verify("preparation: " + what + " answers " + status, actual == status, "got " + actual);
  }

  private void run(Command command, String prelude, Map<String, String> variables) throws Exception {
    System.out.println("$ " + command.text());
    if (command.text().contains("kubectl") || command.text().contains("$NAMESPACE")) {
      skipped.add(command.section() + ": " + command.text() + " (needs Kubernetes: kubectl, a namespace)");
      System.out.println("  skipped: needs Kubernetes");
      return;
    }
    var builder = new ProcessBuilder("bash", "-c", "set -o pipefail\n" + prelude + command.text())
      .redirectErrorStream(true);
    builder.environment().putAll(variables);
    var process = builder.start();
    var output = new StringBuilder();
    var reader = Thread.ofVirtual().start(() -> {
      try {
        output.append(new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
      } catch (IOException e) {
        output.append("(output unreadable: ").append(e.getMessage()).append(')');
      }
    });
    boolean ended = process.waitFor(COMMAND_BOUND_SECONDS, TimeUnit.SECONDS);
    if (!ended) {
      process.destroyForcibly();
    }
    reader.join(5_000);
    var printed = output.toString();
    printed.lines().limit(12).forEach(line -> System.out.println("  | " + shortened(line)));
    int exit = ended ? process.exitValue() : -1;
    checks.verify(command.section() + ": `" + command.text() + "` exits 0", exit == 0,
      ended ? "exit " + exit + ": " + shortened(printed) : "not ended in " + COMMAND_BOUND_SECONDS + " s");
    for (var expected : command.prints()) {
      checks.verify(command.section() + ": `" + command.text() + "` prints " + expected, prints(printed, expected),
        shortened(printed));
    }
  }

  /** Whether {@code output} holds {@code expected}, each {@code …} in it standing for anything. */
  static boolean prints(String output, String expected) {
    int from = 0;
    for (var part : expected.split("…")) {
      int at = output.indexOf(part.strip(), from);
      if (at < 0) {
        return false;
      }
      from = at + part.strip().length();
    }
    return true;
  }

  /** The body of the helpers block. */
  static String helpers(List<String> lines) {
    int start = lines.indexOf(HELPERS);
    if (start < 0) {
      throw new IllegalStateException(RUNBOOKS + " has no " + HELPERS + " block");
    }
    var body = new StringBuilder();
    for (int i = start + 1; !lines.get(i).equals("```"); i++) {
      body.append(lines.get(i)).append('\n');
    }
    return body.toString();
  }

  /**
   * The commands of the checked blocks, by section (the last {@code ## } heading): a line ending in {@code \}
   * continues on the next; {@code # prints: } lines belong to the command before them; other comments and blank
   * lines are for the reader.
   */
  static List<Command> commands(List<String> lines) {
    var commands = new ArrayList<Command>();
    String section = "";
    boolean inBlock = false;
    var text = new StringBuilder();
    for (var raw : lines) {
      // a block may be indented under a list item
      var line = raw.strip();
      if (!inBlock && line.startsWith("## ")) {
        section = line.substring(3).strip();
      } else if (!inBlock && line.equals(CHECKED)) {
        inBlock = true;
      } else if (inBlock && line.equals("```")) {
        inBlock = false;
      } else if (inBlock && line.startsWith(PRINTS)) {
        if (commands.isEmpty()) {
          throw new IllegalStateException("'" + line + "' follows no command");
        }
        commands.getLast().prints().add(line.substring(PRINTS.length()).strip());
      } else if (inBlock && !line.isBlank() && (!line.startsWith("#") || !text.isEmpty())) {
        if (line.endsWith("\\")) {
          text.append(line, 0, line.length() - 1).append(' ');
        } else {
          text.append(line);
          commands.add(new Command(section, text.toString().replaceAll("\\s+", " "), new ArrayList<>()));
          text.setLength(0);
        }
      }
    }
    return commands;
  }

  private static String log() {
    try {
      return Files.readString(SIDECAR_LOG);
    } catch (IOException e) {
      return "";
    }
  }

  private static void await(String what, BooleanSupplier state) throws InterruptedException {
    for (int i = 0; i < 240; i++) {
      if (state.getAsBoolean()) {
        return;
      }
      Thread.sleep(500);
    }
    throw new IllegalStateException("not in 120 s: " + what);
  }

  private static String shortened(String text) {
    var one = text.replaceAll("\\s+", " ").strip();
    return one.length() > 300 ? one.substring(0, 300) + "…" : one;
  }
}
