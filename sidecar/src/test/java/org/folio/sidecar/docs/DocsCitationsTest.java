package org.folio.sidecar.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * What docs/*.md and README.md cite must exist in the code: an operator greps for a log line, queries a metric or
 * label, calls an admin endpoint, sets a variable and trusts its default. Each citation is checked against the
 * sources (not a live scrape, so a metric or line that only appears under a fault counts too), and a failure names
 * the doc, its line and the citation. What counts as a citation:
 * <ul>
 * <li>a log line or error message: a backticked text of three words or more that is not a command, a request
 * line, a header or field, an assignment, code or an expression, unless its sentence says another program writes
 * it (Quarkus', Keycloak's own words, a commit); a line of an untagged fenced block that reads so; a double-quoted
 * text right after a status, "reason", "message", "code" or "check" (an error body's message); the text a runbook
 * greps the sidecar's log for and what it says that prints. Tables skip the columns of another program (upstream,
 * nginx, a baseline). {@code <cause>}, {@code N}, {@code ...} and {@code …} stand for any text, as does a value
 * after {@code key=} unless it is quoted prose. It must be the rendering of one string expression of
 * sidecar/src/main/java (its non-literal parts and format specifiers standing for any text, one nested expression
 * allowed in each, at least 70 % of it literal) or of a message of image/entrypoint.sh; a line built by several
 * statements (the admin audit line) may render part by part between its placeholders;</li>
 * <li>a metric: a {@code sidecar_*} name registered by the code, or a name of the families Micrometer's and
 * Quarkus' binders export ({@code cache_*}, {@code jvm_*}, {@code process_*}, {@code http_server_*}, ...)
 * registered by a binder the sidecar runs (Prometheus' unit and type suffixes added);</li>
 * <li>a label: {@code name{label="value"}}: the label is a tag key of the code (or of the binder), the value a
 * string literal or an enum constant of it;</li>
 * <li>an admin endpoint: {@code /admin/...} with its method when one is written before it, answered by a route
 * of the admin API or SidecarRouter; in admin-api.md's table, the endpoint's name (its audit line's and metric's);
 * </li>
 * <li>a variable: a backticked UPPER_CASE name with an underscore, read by a config mapping, application.properties,
 * the code, the image's entrypoint or a script of the repository (Quarkus' own {@code QUARKUS_*} and OpenTelemetry's
 * {@code OTEL_*} are the framework's);</li>
 * <li>a default: the default column of docs/configuration.md's tables, against @WithDefault or
 * application.properties.</li>
 * </ul>
 */
class DocsCitationsTest {

  private static final Path ROOT = Path.of("..");
  private static final Path MAIN = ROOT.resolve("sidecar/src/main/java");
  private static final Path PROPERTIES = ROOT.resolve("sidecar/src/main/resources/application.properties");
  private static final char ANY = '\u0000';
  /** A placeholder of a cited line: any text of the code's. */
  private static final char WILD = '\u0002';

  private static final Pattern BACKTICKED = Pattern.compile("`([^`]+)`");
  private static final Pattern FENCE = Pattern.compile("^\\s*```\\s*(\\S*).*");
  private static final Pattern TABLE_SEPARATOR = Pattern.compile("^\\|[\\s:|-]+$");
  /** A column of another program's behaviour: deviations.md's upstream, security-edge.md's nginx, a baseline. */
  private static final Pattern OTHER_PROGRAM_COLUMN = Pattern.compile("(?i)^(?:upstream|nginx|baseline|master)");
  /** What a backticked text of several words is when it is not a line the sidecar writes. */
  private static final Pattern NOT_A_LINE = Pattern.compile("(?:[^A-Za-z].*" // an option, path, JSON, placeholder
    + "|(?:kubectl|curl|helm|podman|skopeo|git|npm|trivy|grype|jcmd|jfr|apt-get|mmdebstrap|promtool|grep|sh|sum|rate"
    + "|metric|admin (?:GET|POST))\\s.*" // a command, a runbook's shell function, a query
    + "|\\S*/.*" // a script by its path
    + "|(?:GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS|CONNECT|TRACE|PRI) .*" // a request line
    + "|[\\w./-]+:(?:\\s.*)?" // a header or a YAML field
    + "|\\w+=.*|[\\w.]+[(\\[{].*|.* (?:==|!=|−) .*)"); // an assignment, code, an expression
  /** A sentence that says another program writes the text it cites. */
  private static final Pattern ANOTHER_PROGRAM = Pattern.compile("Quarkus'|Keycloak's own words|Keycloak says|commits");
  private static final Pattern SENTENCE_END = Pattern.compile("(?<!e\\.g)(?<!i\\.e)[.;]\\s");
  private static final Pattern QUOTED = Pattern.compile("\"([^\"]{3,200})\"");
  private static final Pattern QUOTE_CUE = Pattern
    .compile("(?:\\b[1-5]\\d\\d\\b\\**|\\breason|\\bmessage|\\bcode|\\bcheck)[\\s,(]*$");
  /** A runbook's command that greps the sidecar's log for a line (a regular expression, -E, is not a line). */
  private static final Pattern LOG_GREP = Pattern
    .compile("(?:log_of_sidecar|kubectl logs\\b[^|]*?)\\s*\\|\\s*grep\\s+(?!-\\w*E)(?:-\\w+\\s+)*'([^']+)'");
  private static final Pattern PRINTS = Pattern.compile("^#\\s*prints:\\s*(.+)$");
  private static final Pattern PLACEHOLDER = Pattern.compile("<[^>]+>|\\.\\.\\.|…|\\bN\\b");
  /** A value in a {@code key=value} line: an example's, not the code's, unless it is quoted prose. */
  private static final Pattern VALUE = Pattern.compile("(?<=\\w=)(?:\"[^\"]*\"|[^\\s\"…]+)");
  /** The sidecar's own family and those of Micrometer's and Quarkus' binders, on or off. */
  private static final String FAMILIES = "(?:sidecar|cache|jvm|process|system|http_server|http_client|executor"
    + "|netty|jdk|vertx|worker_pool)";
  private static final Pattern METRIC = Pattern
    .compile("(?<![A-Za-z0-9_>.-])" + FAMILIES + "_[a-z0-9_]*[a-z0-9]\\b");
  private static final Pattern SELECTOR = Pattern
    .compile("(?<![A-Za-z0-9_>.-])(" + FAMILIES + "_[a-z0-9_]+)\\{([^}]*)}");
  private static final Pattern MATCHER = Pattern.compile("([a-z_]+)\\s*(=~|!~|!=|=)\\s*\"([^\"]*)\"");
  private static final Pattern ADMIN_PATH = Pattern
    .compile("(?:\\b(GET|HEAD|POST|PUT|PATCH|DELETE) )?(/admin(?:/(?:\\.\\.\\.|[\\w*-]+(?:\\.[\\w-]+)*))*)(?![\\w-])");
  private static final Pattern ADMIN_TABLE_ROW = Pattern
    .compile("^\\|\\s*`(GET|POST) (/admin[^`?\\s]*)[^|]*\\|\\s*`(\\w+)`\\s*\\|");
  private static final Pattern VARIABLE = Pattern.compile("(?<![A-Za-z0-9_.$-])([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\\b");
  private static final Pattern FORMAT = Pattern.compile("%[-#+ 0,(]*\\d*(?:\\.\\d+)?[sdfxXbcneg]");
  /** Named in the docs but not variables of this sidecar: Kafka's protocol values, variables said to be gone. */
  private static final Set<String> NOT_VARIABLES = Set.of("SASL_PLAINTEXT", "SASL_SSL",
    "SIDECAR_AUTHZ_CACHE_ADMIN_ENABLED", "SIDECAR_AUTHZ_CACHE_ADMIN_TOKEN");
  /** Named in the docs as gone: the module port's cache endpoint of before the admin API. */
  private static final Set<String> GONE_ENDPOINTS = Set.of("/admin/authz-cache/...");
  private static final Pattern PROSE_DEFAULT = Pattern
    .compile("`([A-Z][A-Z0-9_]+)` \\((\\d+ ?(?:ms|s|min|minutes|h))\\)");
  private static final Pattern DURATION = Pattern.compile("(\\d+) ?(ms|s|m|min|minutes|h)");
  private static final Set<String> METRIC_SUFFIXES = Set.of("", "_total", "_count", "_sum", "_bucket", "_max",
    "_seconds", "_seconds_count", "_seconds_sum", "_seconds_bucket", "_seconds_max", "_bytes");

  private final List<String> missing = new ArrayList<>();
  private final Map<String, Integer> checked = new TreeMap<>();

  @Test
  void everyCitedLineMetricLabelEndpointVariableAndDefaultExistsInTheCode() throws IOException {
    var code = new Code();
    for (var doc : docs()) {
      var lines = Files.readAllLines(doc);
      var name = ROOT.relativize(doc).toString();
      checkLogLines(name, lines, code);
      checkMetrics(name, lines, code);
      checkEndpoints(name, lines, code);
      checkVariables(name, lines, code);
      if (name.endsWith("configuration.md")) {
        checkDefaults(name, lines, code);
      }
      checkDefaultsInProse(name, lines, code);
    }
    // .ci/run shows this line: surefire keeps the rest of a test's output in its report file
    System.out.println("[docs] citations checked: " + checked + ", missing: " + missing.size());
    assertThat(missing).as("citations of docs/*.md and README.md the code does not have (of %s checked)", checked)
      .isEmpty();
    // a change that finds fewer citations than the docs hold fails too
    assertThat(checked.get("log line")).as("log lines checked").isGreaterThanOrEqualTo(88);
    assertThat(checked.get("metric")).as("metrics checked").isGreaterThanOrEqualTo(160);
    assertThat(checked.get("label")).as("labels checked").isGreaterThanOrEqualTo(38);
    assertThat(checked.get("endpoint")).as("admin endpoints checked").isGreaterThanOrEqualTo(79);
    assertThat(checked.get("endpoint name")).as("admin endpoint names checked").isGreaterThanOrEqualTo(12);
    assertThat(checked.get("variable")).as("variables checked").isGreaterThanOrEqualTo(838);
    assertThat(checked.get("default")).as("defaults checked").isGreaterThanOrEqualTo(178);
  }

  @Test
  void aCitationTheCodeDoesNotHaveIsCaught() throws IOException {
    var code = new Code();
    assertThat(code.prints("Keycloak is gone: ")).isFalse();
    assertThat(duration("2 s")).isNotEqualTo(duration("15s"));
    assertThat(duration("10 min")).isEqualTo(duration("10m"));
    assertThat(code.prints("Keycloak is unreachable: ")).isTrue();
    assertThat(code.prints("Keycloak authorization timeout: ")).isTrue();
    assertThat(code.prints("Keycloak authorization timeout: Keycloak did not answer within 15000 ms "
      + "(KC_REQUEST_TIMEOUT)")).isTrue();
    assertThat(code.prints("Keycloak authorization timeout: Keycloak did not answer within 15000 ms (KC_TIMEOUT)"))
      .isFalse();

    checkLogLines("runbook.md", List.of("Each loss is logged once (`Kafka is unreachable: …`), then e.g.",
      "`Kafka is gone again after N s`; Keycloak's own words follow, e.g. `Unknown resource server id: [x]`.",
      "Run `kubectl logs pod -c sidecar` or `admin GET /admin/cache`; a bad name is 404 \"No module named N\"."),
      code);
    assertThat(checked.get("log line")).isEqualTo(3);
    assertThat(missing).hasSize(2).allMatch(m -> m.contains("Kafka is gone again") || m.contains("No module named"));

    missing.clear();
    checkMetrics("metrics.md", List.of("`cache_gets_total{result=\"hit\"}`, `jvm_memory_used_bytes`, "
      + "`cache_puts_total`, `http_server_requests_seconds_count` (its binder is off)"), code);
    assertThat(missing).hasSize(2).allMatch(m -> m.contains("cache_puts_total")
      || m.contains("http_server_requests_seconds_count"));

    missing.clear();
    checkEndpoints("admin.md", List.of("`admin POST /admin/cache/flush`, `GET /admin/cache/flush`, "
      + "`/admin/health/ready`, `/admin/healthcheck`", "| `GET /admin/cache` | `cache_lookup` | the stats |"), code);
    assertThat(missing).hasSize(3).anyMatch(m -> m.contains("`GET /admin/cache/flush`"))
      .anyMatch(m -> m.contains("`/admin/healthcheck`")).anyMatch(m -> m.contains("cache_lookup"));
  }

  /**
   * Log lines cited in prose and tables (paragraph by paragraph, so a citation may run over a line break), in
   * untagged fenced blocks, and in a runbook's greps of the sidecar's log and what they print.
   */
  private void checkLogLines(String doc, List<String> lines, Code code) {
    for (int i = 0; i < lines.size(); i++) {
      var fence = FENCE.matcher(lines.get(i));
      if (fence.matches()) {
        boolean untagged = fence.group(1).isEmpty();
        boolean grepped = false;
        for (i++; i < lines.size() && !FENCE.matcher(lines.get(i)).matches(); i++) {
          var text = lines.get(i).strip();
          var grep = LOG_GREP.matcher(text);
          boolean greps = grep.find();
          var prints = PRINTS.matcher(text);
          if (untagged && isLine(text)) {
            checkLogLine(doc, i + 1, text, code);
          } else if (greps) {
            checkLogLine(doc, i + 1, grep.group(1), code);
          } else if (grepped && prints.matches()) {
            checkLogLine(doc, i + 1, prints.group(1), code);
          }
          grepped = greps;
        }
        continue;
      }
      int end = i;
      while (end < lines.size() && !lines.get(end).isBlank() && !FENCE.matcher(lines.get(end)).matches()) {
        end++;
      }
      if (end > i) {
        for (var part : parts(lines.subList(i, end), i + 1)) {
          checkProse(doc, part, code);
        }
        i = end - 1;
      }
    }
  }

  /** A paragraph's text, or a table's cells, each with the line it starts on. */
  private record Part(int line, String text) {
  }

  private static List<Part> parts(List<String> paragraph, int first) {
    if (!paragraph.get(0).startsWith("|")) {
      return List.of(new Part(first, String.join("\n", paragraph)));
    }
    var header = cells(paragraph.get(0));
    var parts = new ArrayList<Part>();
    for (int row = 0; row < paragraph.size(); row++) {
      if (TABLE_SEPARATOR.matcher(paragraph.get(row)).matches()) {
        continue;
      }
      var cells = cells(paragraph.get(row));
      for (int column = 0; column < cells.size(); column++) {
        if (row == 0 || column >= header.size() || !OTHER_PROGRAM_COLUMN.matcher(header.get(column)).find()) {
          parts.add(new Part(first + row, cells.get(column)));
        }
      }
    }
    return parts;
  }

  /** A table row's cells; a {@code |} inside backticks is text. */
  private static List<String> cells(String row) {
    var cells = new ArrayList<String>();
    var cell = new StringBuilder();
    boolean code = false;
    for (char c : row.strip().substring(1).toCharArray()) {
      if (c == '|' && !code) {
        cells.add(cell.toString().strip());
        cell.setLength(0);
      } else {
        code ^= c == '`';
        cell.append(c);
      }
    }
    if (!cell.isEmpty()) {
      cells.add(cell.toString().strip());
    }
    return cells;
  }

  private void checkProse(String doc, Part part, Code code) {
    var text = part.text();
    var span = BACKTICKED.matcher(text);
    while (span.find()) {
      var cited = span.group(1).strip().replaceAll("\\s+", " ");
      if (isLine(cited) && !saysAnotherProgramWritesIt(text.substring(0, span.start()))) {
        checkLogLine(doc, part.line() + lineBreaks(text, span.start()), cited, code);
      }
    }
    // a quote inside backticks is code, not a message
    var prose = span.replaceAll(m -> " ".repeat(m.group().length()));
    var quote = QUOTED.matcher(prose);
    while (quote.find()) {
      var before = prose.substring(0, quote.start());
      if (QUOTE_CUE.matcher(before).find() && !saysAnotherProgramWritesIt(before)) {
        checkLogLine(doc, part.line() + lineBreaks(text, quote.start()), quote.group(1).replaceAll("\\s+", " "),
          code);
      }
    }
  }

  private static boolean isLine(String text) {
    return text.split("\\s+").length >= 3 && !NOT_A_LINE.matcher(text).matches();
  }

  private static boolean saysAnotherProgramWritesIt(String before) {
    var end = SENTENCE_END.matcher(before);
    int sentence = 0;
    while (end.find()) {
      sentence = end.end();
    }
    return ANOTHER_PROGRAM.matcher(before.substring(sentence)).find();
  }

  private static int lineBreaks(String text, int to) {
    return (int) text.substring(0, to).chars().filter(c -> c == '\n').count();
  }

  private void checkLogLine(String doc, int line, String text, Code code) {
    count("log line");
    System.out.println("[docs] log line " + doc + ":" + line + " `" + text + "`");
    var template = VALUE.matcher(text)
      .replaceAll(value -> value.group().matches("\"[A-Za-z]+(?: [A-Za-z]+)+\"") ? "$0" : "…");
    if (code.prints(template)) {
      return;
    }
    // a line built by several statements (the admin audit line) renders part by part
    for (var fragment : PLACEHOLDER.split(template)) {
      var part = fragment.strip();
      if (part.length() < 4) {
        continue;
      }
      // a part too short for the 70 % rule, a key between two values, must be part of a literal
      boolean printed = part.length() < 6
        ? code.literals.stream().anyMatch(literal -> literal.contains(part))
        : code.prints(part);
      if (!printed) {
        missing.add(doc + ":" + line + " log line `" + text + "`: no string of the code renders '" + part + "'");
        return;
      }
    }
  }

  private void checkMetrics(String doc, List<String> lines, Code code) {
    for (int i = 0; i < lines.size(); i++) {
      var line = lines.get(i);
      var m = METRIC.matcher(line);
      while (m.find()) {
        // an admin endpoint's name (cache_flush) shares a family's prefix: checkEndpoints checks it
        if (code.endpointNames.containsValue(m.group())) {
          continue;
        }
        count("metric");
        if (!code.hasMetric(m.group())) {
          missing.add(doc + ":" + (i + 1) + " metric `" + m.group() + "`: no meter of the code or of a binder the "
            + "sidecar runs is exported so");
        }
      }
      var s = SELECTOR.matcher(line);
      while (s.find()) {
        boolean own = s.group(1).startsWith("sidecar_");
        var matchers = MATCHER.matcher(s.group(2));
        while (matchers.find()) {
          count("label");
          var label = matchers.group(1);
          var op = matchers.group(2);
          var value = matchers.group(3);
          if (!code.literals.contains(label) && (own || !code.binders.words.contains(label))) {
            missing.add(doc + ":" + (i + 1) + " label `" + label + "` of `" + s.group(1) + "`: no such tag key");
          } else if (op.equals("=") && !value.isEmpty() && !code.isValue(value)
            && (own || !code.binders.words.contains(value))) {
            missing.add(doc + ":" + (i + 1) + " label value `" + label + "=\"" + value + "\"` of `" + s.group(1)
              + "`: the code has no such value");
          }
        }
      }
    }
  }

  private void checkEndpoints(String doc, List<String> lines, Code code) {
    for (int i = 0; i < lines.size(); i++) {
      var m = ADMIN_PATH.matcher(lines.get(i));
      while (m.find()) {
        if (GONE_ENDPOINTS.contains(m.group(2))) {
          continue;
        }
        count("endpoint");
        if (!code.answers(m.group(1), m.group(2))) {
          missing.add(doc + ":" + (i + 1) + " endpoint `" + m.group() + "`: no route of the code answers it");
        }
      }
      var row = ADMIN_TABLE_ROW.matcher(lines.get(i));
      if (row.find()) {
        count("endpoint name");
        var name = code.endpointNames.get(row.group(1) + " " + row.group(2));
        if (!row.group(3).equals(name)) {
          missing.add(doc + ":" + (i + 1) + " endpoint name `" + row.group(3) + "` of `" + row.group(1) + " "
            + row.group(2) + "`: the code names it " + name);
        }
      }
    }
  }

  private void checkVariables(String doc, List<String> lines, Code code) {
    for (int i = 0; i < lines.size(); i++) {
      var m = BACKTICKED.matcher(lines.get(i));
      while (m.find()) {
        var span = m.group(1);
        var v = VARIABLE.matcher(span);
        while (v.find()) {
          var name = v.group(1);
          boolean value = v.start() > 0 && span.charAt(v.start() - 1) == '=';
          boolean glob = v.end() < span.length() && span.charAt(v.end()) == '*';
          if (value || glob || NOT_VARIABLES.contains(name)) {
            continue;
          }
          count("variable");
          if (!code.knowsVariable(name)) {
            missing.add(doc + ":" + (i + 1) + " variable `" + name + "`: nothing in the code or scripts reads it");
          }
        }
      }
    }
  }

  private void checkDefaults(String doc, List<String> lines, Code code) {
    for (int i = 0; i < lines.size(); i++) {
      var cells = lines.get(i).split("\\|");
      if (cells.length < 4 || !cells[1].strip().startsWith("`")) {
        continue;
      }
      var variables = new ArrayList<String>();
      var v = VARIABLE.matcher(cells[1].replaceAll("\\(.*?\\)", ""));
      while (v.find()) {
        variables.add(v.group(1));
      }
      // "`A` / `B` | `1` / `2`": one default each; "`A`, `B` | `1`": the same for all
      var cell = cells[2].strip();
      var parts = variables.size() > 1 && cell.contains(" / ")
        ? List.of(cell.split(" / "))
        : variables.size() > 1 && cell.split("`").length / 2 == variables.size()
          ? List.of(cell.split(",\\s*"))
          : null;
      var defaults = new ArrayList<String>();
      for (int k = 0; k < variables.size(); k++) {
        var part = parts == null ? cell : k < parts.size() ? parts.get(k).strip() : "";
        var d = BACKTICKED.matcher(part);
        defaults.add(part.startsWith("`") && d.find() ? d.group(1) : "");
      }
      for (int k = 0; k < variables.size() && k < defaults.size(); k++) {
        var actual = code.defaults.get(variables.get(k));
        if (defaults.get(k).isEmpty() || actual == null || actual.isEmpty() || actual.contains("${")) {
          continue;
        }
        count("default");
        if (!sameDefault(defaults.get(k), actual)) {
          missing.add(doc + ":" + (i + 1) + " default of `" + variables.get(k) + "`: the doc says `" + defaults.get(k)
            + "`, the code `" + actual + "`");
        }
      }
    }
  }

  /** "`KC_REQUEST_TIMEOUT` (15 s)": a duration in brackets after a variable is its default. */
  private void checkDefaultsInProse(String doc, List<String> lines, Code code) {
    for (int i = 0; i < lines.size(); i++) {
      var m = PROSE_DEFAULT.matcher(lines.get(i));
      while (m.find()) {
        var actual = code.defaults.get(m.group(1));
        var said = duration(m.group(2));
        var meant = actual == null ? null : duration(actual);
        if (said == null || meant == null) {
          continue;
        }
        count("default");
        if (!said.equals(meant)) {
          missing.add(doc + ":" + (i + 1) + " default of `" + m.group(1) + "`: the doc says " + m.group(2)
            + ", the code `" + actual + "`");
        }
      }
    }
  }

  private static @Nullable Duration duration(String text) {
    var m = DURATION.matcher(text.strip());
    if (!m.matches()) {
      return null;
    }
    long amount = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(amount);
      case "s" -> Duration.ofSeconds(amount);
      case "m", "min", "minutes" -> Duration.ofMinutes(amount);
      case "h" -> Duration.ofHours(amount);
      default -> null;
    };
  }

  private static boolean sameDefault(String doc, String code) {
    return doc.equalsIgnoreCase(code) || doc.replace(",", "").equalsIgnoreCase(code);
  }

  private void count(String what) {
    checked.merge(what, 1, Integer::sum);
  }

  private static List<Path> docs() throws IOException {
    try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
      var docs = new ArrayList<>(files.filter(p -> p.toString().endsWith(".md")).sorted().toList());
      docs.add(ROOT.resolve("README.md"));
      return docs;
    }
  }

  /** What the sources say: their string expressions, literals, meters, routes, variables and defaults. */
  static final class Code {

    /** In a State's inner: back in the outer's part after a nested expression. */
    private static final int AFTER_NESTED = -2;

    final List<String> expressions = new ArrayList<>();
    final Set<String> literals = new HashSet<>();
    final Set<String> enumConstants = new HashSet<>();
    final Set<String> meters = new HashSet<>();
    final Set<String> meterSuffixes = new HashSet<>();
    final Set<String> variables = new HashSet<>();
    final Set<String> families = new HashSet<>();
    final Set<String> suffixes = new HashSet<>();
    final Map<String, String> defaults = new LinkedHashMap<>();
    /** By path, the methods a route answers: SidecarRouter's on the module's port, the admin API's. */
    final Map<String, Set<String>> routes = new HashMap<>();
    /** By method and path, the admin API's name of the endpoint. */
    final Map<String, String> endpointNames = new HashMap<>();
    final Binders binders;
    /** Where a nested expression is entered: at its first literal character (a part before it is the outer's). */
    private final Map<Character, List<Entry>> byFirstLiteral = new HashMap<>();

    Code() throws IOException {
      var imported = new ArrayList<String>();
      try (Stream<Path> files = Files.walk(MAIN)) {
        for (var file : files.filter(p -> p.toString().endsWith(".java")).toList()) {
          var source = Files.readString(file);
          readJava(source);
          readRoutes(source);
          if (source.contains("@ConfigMapping")) {
            readMapping(source);
          }
          var binder = Pattern.compile("(?m)^import (io\\.micrometer\\.core\\.instrument\\.binder\\.[\\w.]+);")
            .matcher(source);
          while (binder.find()) {
            imported.add(binder.group(1).replace('.', '/'));
          }
        }
      }
      binders = new Binders(imported);
      readProperties(Files.readString(PROPERTIES));
      readScripts();
      for (int e = 0; e < expressions.size(); e++) {
        var expression = expressions.get(e);
        int first = 0;
        while (expression.charAt(first) == ANY) {
          first++;
        }
        byFirstLiteral.computeIfAbsent(expression.charAt(first), c -> new ArrayList<>()).add(new Entry(e, first + 1));
      }
    }

    boolean hasMetric(String name) {
      for (var meter : meters) {
        var base = meter.replace('.', '_').replace('-', '_');
        var names = new ArrayList<String>();
        names.add(base);
        meterSuffixes.forEach(suffix -> names.add(base + suffix.replace('.', '_')));
        if (names.stream().anyMatch(candidate -> exported(name, candidate))) {
          return true;
        }
      }
      return binders.meters.stream().anyMatch(meter -> exported(name, meter.replace('.', '_')));
    }

    private static boolean exported(String name, String meter) {
      return name.startsWith(meter) && METRIC_SUFFIXES.contains(name.substring(meter.length()));
    }

    /** Whether a route answers the path ({@code /*} or {@code /...} at its end: any path below) and method. */
    boolean answers(@Nullable String method, String path) {
      var below = path.endsWith("/*") || path.endsWith("/...") ? path.substring(0, path.lastIndexOf('/') + 1) : null;
      return routes.entrySet().stream()
        .anyMatch(route -> (below == null ? route.getKey().equals(path) : route.getKey().startsWith(below))
          && (method == null || route.getValue().contains(method)));
    }

    boolean isValue(String value) {
      return literals.contains(value) || enumConstants.contains(value)
        || enumConstants.contains(value.toUpperCase(Locale.ROOT)) || value.matches("\\d+");
    }

    /**
     * Read by the code or a script; a family ({@code KAFKA_x}, a map's entries); a name built from a suffix; a
     * shorthand (the end of a longer variable's name, {@code REFRESH_AFTER}); or the framework's own.
     */
    boolean knowsVariable(String name) {
      return variables.contains(name) || name.startsWith("QUARKUS_") || name.startsWith("OTEL_")
        || families.stream().anyMatch(name::startsWith)
        || suffixes.stream().anyMatch(suffix -> name.endsWith(suffix) && name.length() - suffix.length() <= 4)
        || variables.stream().anyMatch(v -> v.endsWith("_" + name));
    }

    /**
     * Whether some string expression renders a text that contains this one: its literal characters in order,
     * its non-literal parts (one of which may be another expression) standing for any text, 70 % of it literal.
     * A placeholder of the cited text stands for any part of the expression (at the end: the rest of the line).
     */
    boolean prints(String cited) {
      var text = PLACEHOLDER.matcher(cited).replaceAll(String.valueOf(WILD))
        .replaceAll("^[\\s" + WILD + "]+|\\s+$", "");
      if (text.isEmpty()) {
        return false;
      }
      Map<State, Integer> states = new HashMap<>();
      for (int e = 0; e < expressions.size(); e++) {
        var expression = expressions.get(e);
        for (int p = 0; p < expression.length(); p++) {
          if (expression.charAt(p) == ANY || expression.charAt(p) == text.charAt(0)) {
            states.put(new State(e, p, -1, 0), 0);
          }
        }
      }
      int needed = Math.max(6, text.replace(String.valueOf(WILD), "").length() * 7 / 10);
      // literal characters the text has left after position i: a match that cannot reach needed with all of them
      // is dropped early
      var left = new int[text.length() + 1];
      for (int i = text.length() - 1; i >= 0; i--) {
        left[i] = left[i + 1] + (text.charAt(i) == WILD ? 0 : 1);
      }
      for (int i = 0; i < text.length() && !states.isEmpty(); i++) {
        int reachable = needed - left[i + 1];
        states = step(closure(states), text.charAt(i), i == text.length() - 1);
        states.values().removeIf(literal -> literal < reachable);
      }
      int best = states.values().stream().mapToInt(Integer::intValue).max().orElse(-1);
      return best >= needed;
    }

    /** Where the match is: position p of expression outer, or q of the nested expression inner within it. */
    private record State(int outer, int p, int inner, int q) {
    }

    private record Entry(int expression, int after) {
    }

    private Map<State, Integer> closure(Map<State, Integer> states) {
      var result = new HashMap<>(states);
      var work = new ArrayList<>(states.keySet());
      while (!work.isEmpty()) {
        var s = work.remove(work.size() - 1);
        int literal = result.get(s);
        var next = new ArrayList<State>();
        if (s.inner() >= 0) {
          var inner = expressions.get(s.inner());
          if (s.q() == inner.length()) {
            // the nested expression may be all of the outer's part or one piece of it (a list joined), but
            // the part holds no second one (AFTER_NESTED)
            next.add(new State(s.outer(), s.p() + 1, -1, 0));
            next.add(new State(s.outer(), s.p(), AFTER_NESTED, 0));
          } else if (inner.charAt(s.q()) == ANY) {
            next.add(new State(s.outer(), s.p(), s.inner(), s.q() + 1));
          }
        } else if (s.p() < expressions.get(s.outer()).length() && expressions.get(s.outer()).charAt(s.p()) == ANY) {
          next.add(new State(s.outer(), s.p() + 1, -1, 0));
        }
        for (var state : next) {
          if (result.getOrDefault(state, -1) < literal) {
            result.put(state, literal);
            work.add(state);
          }
        }
      }
      return result;
    }

    /** The last character must be one of the expression's own, not a part standing for any text. */
    private Map<State, Integer> step(Map<State, Integer> states, char c, boolean last) {
      var next = new HashMap<State, Integer>();
      states.forEach((s, literal) -> {
        if (c == WILD) {
          for (int p = s.p(); p <= expressions.get(s.outer()).length(); p++) {
            next.merge(new State(s.outer(), p, -1, 0), literal, Math::max);
          }
          return;
        }
        if (s.inner() >= 0) {
          var inner = expressions.get(s.inner());
          if (s.q() < inner.length()) {
            if (inner.charAt(s.q()) == ANY && !last) {
              next.merge(s, literal, Math::max);
            } else if (inner.charAt(s.q()) == c) {
              next.merge(new State(s.outer(), s.p(), s.inner(), s.q() + 1), literal + 1, Math::max);
            }
          }
          return;
        }
        var outer = expressions.get(s.outer());
        if (s.p() >= outer.length()) {
          return;
        }
        if (outer.charAt(s.p()) == ANY) {
          if (!last) {
            next.merge(s, literal, Math::max);
          }
          if (literal > 0 && s.inner() != AFTER_NESTED) {
            for (var inner : byFirstLiteral.getOrDefault(c, List.of())) {
              next.merge(new State(s.outer(), s.p(), inner.expression(), inner.after()), literal + 1, Math::max);
            }
          }
        } else if (outer.charAt(s.p()) == c) {
          next.merge(new State(s.outer(), s.p() + 1, -1, 0), literal + 1, Math::max);
        }
      });
      return next;
    }

    private void readJava(String source) {
      var pieces = JavaText.pieces(source);
      var expression = new StringBuilder();
      for (int i = 0; i < pieces.size(); i++) {
        var piece = pieces.get(i);
        if (!piece.literal()) {
          collectNames(piece.text());
          continue;
        }
        var text = piece.text();
        literals.add(text);
        if (text.matches("sidecar\\.[a-z0-9.-]+")) {
          meters.add(text);
        } else if (text.matches("\\.[a-z0-9.-]+")) {
          meterSuffixes.add(text);
        }
        var v = VARIABLE.matcher(text);
        while (v.find()) {
          variables.add(v.group(1));
        }
        if (text.matches("[A-Z][A-Z0-9_]*_")) {
          families.add(text);
        } else if (text.matches("_[A-Z0-9_]+")) {
          suffixes.add(text);
        }
        var before = i > 0 && !pieces.get(i - 1).literal() ? pieces.get(i - 1).text().strip() : "";
        var after = i + 1 < pieces.size() && !pieces.get(i + 1).literal() ? pieces.get(i + 1).text().strip() : "";
        if (expression.length() > 0 && before.startsWith("+") && before.endsWith("+")) {
          if (!before.equals("+")) {
            expression.append(ANY);
          }
        } else {
          flush(expression);
          if (before.endsWith("+")) {
            expression.append(ANY);
          }
        }
        expression.append(FORMAT.matcher(text.replace("%%", "\u0001")).replaceAll(String.valueOf(ANY))
          .replace('\u0001', '%'));
        if (after.startsWith("+") && !after.endsWith("+")) {
          expression.append(ANY);
        }
        if (!(after.startsWith("+") && after.endsWith("+"))) {
          flush(expression);
        }
      }
      flush(expression);
    }

    /**
     * Vert.x routes by literal path ({@code router.get("/admin/health")}), and the admin API's endpoints:
     * {@code read(name, path, ...)} is a GET, {@code change(name, path, ...)} a POST, below its BASE.
     */
    private void readRoutes(String source) {
      var route = Pattern.compile("router\\.(get|post|put|delete|head)\\(\"(/[^\"]*)\"\\)").matcher(source);
      while (route.find()) {
        routes.computeIfAbsent(route.group(2), path -> new HashSet<>()).add(route.group(1).toUpperCase(Locale.ROOT));
      }
      var base = Pattern.compile("static final String BASE = \"([^\"]*)\";").matcher(source);
      if (!source.contains("class AdminRoutes") || !base.find()) {
        return;
      }
      var endpoint = Pattern.compile("\\b(read|change)\\(\"(\\w+)\", \"([^\"]*)\""
        + "|new Endpoint\\(\"(\\w+)\", HttpMethod\\.(\\w+), BASE \\+ \"([^\"]*)\"").matcher(source);
      while (endpoint.find()) {
        boolean helper = endpoint.group(1) != null;
        var method = helper ? endpoint.group(1).equals("read") ? "GET" : "POST" : endpoint.group(5);
        var path = base.group(1) + (helper ? endpoint.group(3) : endpoint.group(6));
        routes.computeIfAbsent(path, key -> new HashSet<>()).add(method);
        endpointNames.put(method + " " + path, helper ? endpoint.group(2) : endpoint.group(4));
      }
    }

    private void collectNames(String code) {
      var m = Pattern.compile("(?m)^\\s*([A-Z][A-Z0-9_]*)\\s*(?:\\(|,|;)").matcher(code);
      while (m.find()) {
        enumConstants.add(m.group(1));
      }
    }

    private void flush(StringBuilder expression) {
      var text = expression.toString();
      if (text.replace(String.valueOf(ANY), "").strip().length() >= 3) {
        expressions.add(text);
      }
      expression.setLength(0);
    }

    private void readMapping(String source) {
      var body = JavaText.withoutComments(source);
      var prefix = Pattern.compile("@ConfigMapping\\(prefix = \"([^\"]+)\"\\)").matcher(body);
      if (prefix.find()) {
        int open = body.indexOf('{', prefix.end());
        readMethods(body, open, environment(prefix.group(1)));
      }
    }

    /** The methods of the interface whose body opens at {@code open}; a nested interface's under its method's name. */
    private void readMethods(String body, int open, String prefix) {
      // any @With annotation, a converter's class too: one the pattern skipped hid the defaults written before it
      var method = Pattern.compile("((?:@With\\w+\\((?:\"[^\"]*\"|[^)\"]*)\\)\\s*)*)([\\w.<>, ]+?)\\s+(\\w+)\\(\\);")
        .matcher(body);
      int depth = 0;
      int from = open + 1;
      while (method.find(from)) {
        depth += braces(body, from, method.start());
        if (depth < 0) {
          return;
        }
        if (depth == 0) {
          var annotations = method.group(1);
          var withName = Pattern.compile("@WithName\\(\"([^\"]*)\"\\)").matcher(annotations);
          var variable = prefix + "_" + environment(withName.find() ? withName.group(1) : kebab(method.group(3)));
          variables.add(variable);
          var type = method.group(2).strip();
          if (type.startsWith("Map<")) {
            families.add(variable + "_");
          }
          var withDefault = Pattern.compile("@WithDefault\\(\"([^\"]*)\"\\)").matcher(annotations);
          if (withDefault.find()) {
            defaults.putIfAbsent(variable, withDefault.group(1));
          }
          var nested = Pattern.compile("interface " + Pattern.quote(type) + "\\s*\\{").matcher(body);
          if (type.matches("\\w+") && nested.find()) {
            readMethods(body, nested.end() - 1, variable);
          }
        }
        from = method.end();
      }
    }

    private static int braces(String text, int from, int to) {
      int depth = 0;
      for (int i = from; i < to; i++) {
        depth += text.charAt(i) == '{' ? 1 : text.charAt(i) == '}' ? -1 : 0;
      }
      return depth;
    }

    private void readProperties(String properties) {
      var reference = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*)(?::((?:[^{}]|\\$\\{[^}]*})*))?}").matcher(properties);
      while (reference.find()) {
        variables.add(reference.group(1));
        if (reference.group(2) != null) {
          defaults.put(reference.group(1), reference.group(2));
        }
      }
      properties.lines().map(String::strip).filter(l -> !l.startsWith("#") && l.contains("="))
        .map(l -> l.substring(0, l.indexOf('=')).replaceFirst("^%[\\w-]+\\.", ""))
        .forEach(property -> variables.add(environment(property)));
    }

    /** The image's entrypoint prints lines of its own and reads variables; scripts read theirs. */
    private void readScripts() throws IOException {
      var entrypoint = Files.readString(ROOT.resolve("image/entrypoint.sh"));
      var quoted = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(entrypoint);
      while (quoted.find()) {
        var text = quoted.group(1).replaceAll("\\$\\{[^}]*}|\\$\\([^)]*\\)|\\$\\w+", String.valueOf(ANY));
        if (text.replace(String.valueOf(ANY), "").strip().length() >= 3) {
          expressions.add(text);
        }
      }
      for (var folder : List.of("image", "ops", "load", "scripts", "k8s", "build-config",
        "sidecar/src/main/resources")) {
        try (Stream<Path> files = Files.walk(ROOT.resolve(folder))) {
          files.filter(Files::isRegularFile).filter(p -> p.toString().matches(".*\\.(sh|env|yaml|properties|py)$")
            || p.getFileName().toString().startsWith("Containerfile")).forEach(this::readNames);
        }
      }
      readNames(ROOT.resolve("demo.sh"));
    }

    private void readNames(Path file) {
      try {
        var v = VARIABLE.matcher(Files.readString(file));
        while (v.find()) {
          variables.add(v.group(1));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private static String kebab(String camel) {
      return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    private static String environment(String property) {
      return property.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }
  }

  /**
   * The meters of the Micrometer binders the sidecar runs, read from their class files: those Quarkus' recorder
   * binds (JVM and system) and those the code imports (CaffeineStatsCounter), with the binder classes they use.
   * Quarkus' HTTP, Vert.x and Netty binders, off in application.properties, are not read: a doc citing their
   * families ({@code http_server_*}) fails.
   * Their other constants and the constants of the enums they use are the tag keys and values they may write
   * ({@code result="hit"}, {@code cause="SIZE"}).
   */
  static final class Binders {

    private static final String PACKAGE = "io/micrometer/core/instrument/binder/";
    private static final String QUARKUS_RECORDER = "io/quarkus/micrometer/runtime/MicrometerRecorder";
    private static final Pattern CLASS = Pattern.compile("(?:^|L)((?:[a-z]\\w*/)+[A-Z][\\w$]*)");
    private static final Pattern METER = Pattern.compile("[a-z]+(?:\\.[a-z0-9]+)+");

    final Set<String> meters = new HashSet<>();
    final Set<String> words = new HashSet<>();

    Binders(Collection<String> imported) throws IOException {
      var todo = new ArrayDeque<>(imported);
      references(constants(QUARKUS_RECORDER)).stream().filter(name -> name.startsWith(PACKAGE)).forEach(todo::add);
      var read = new HashSet<String>();
      while (!todo.isEmpty()) {
        var binder = todo.remove();
        if (!read.add(binder)) {
          continue;
        }
        var constants = constants(binder);
        words.addAll(constants);
        constants.stream().filter(constant -> METER.matcher(constant).matches()).forEach(meters::add);
        for (var used : references(constants)) {
          if (used.startsWith(PACKAGE)) {
            todo.add(used);
          } else {
            words.addAll(enumConstants(used));
          }
        }
      }
    }

    private static Set<String> references(List<String> constants) {
      var classes = new HashSet<String>();
      for (var constant : constants) {
        var m = CLASS.matcher(constant);
        while (m.find()) {
          classes.add(m.group(1));
        }
      }
      return classes;
    }

    private static List<String> enumConstants(String name) {
      try {
        var type = Class.forName(name.replace('/', '.'), false, Binders.class.getClassLoader());
        var constants = type.getEnumConstants();
        return constants == null ? List.of() : Stream.of(constants).map(String::valueOf).toList();
      } catch (ClassNotFoundException | LinkageError e) {
        return List.of();
      }
    }

    /** The strings of a class file's constant pool (JVMS 4.4). */
    static List<String> constants(String name) throws IOException {
      var file = Binders.class.getClassLoader().getResourceAsStream(name + ".class");
      try (var in = new DataInputStream(new BufferedInputStream(Objects.requireNonNull(file, name)))) {
        in.skipNBytes(8);
        int count = in.readUnsignedShort();
        var strings = new ArrayList<String>();
        for (int i = 1; i < count; i++) {
          int tag = in.readUnsignedByte();
          switch (tag) {
            case 1 -> strings.add(in.readUTF());
            case 5, 6 -> {
              in.skipNBytes(8);
              i++;
            }
            case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
            case 15 -> in.skipNBytes(3);
            case 7, 8, 16, 19, 20 -> in.skipNBytes(2);
            default -> throw new IOException(name + ": constant pool tag " + tag);
          }
        }
        return strings;
      }
    }
  }

  /** Java source split into string literals (unescaped) and the code between them; comments dropped. */
  static final class JavaText {

    record Piece(boolean literal, String text) {
    }

    static List<Piece> pieces(String source) {
      var pieces = new ArrayList<Piece>();
      var code = new StringBuilder();
      int i = 0;
      while (i < source.length()) {
        char c = source.charAt(i);
        if (source.startsWith("//", i)) {
          i = endOfLine(source, i);
        } else if (source.startsWith("/*", i)) {
          int end = source.indexOf("*/", i + 2);
          i = end < 0 ? source.length() : end + 2;
        } else if (source.startsWith("\"\"\"", i)) {
          int end = source.indexOf("\"\"\"", i + 3);
          i = end < 0 ? source.length() : end + 3;
          code.append(' ');
        } else if (c == '\'') {
          int end = i + 1;
          while (end < source.length() && source.charAt(end) != '\'') {
            end += source.charAt(end) == '\\' ? 2 : 1;
          }
          code.append("' '");
          i = end + 1;
        } else if (c == '"') {
          var literal = new StringBuilder();
          int j = i + 1;
          while (j < source.length() && source.charAt(j) != '"') {
            if (source.charAt(j) == '\\' && j + 1 < source.length()) {
              j++;
              char escaped = source.charAt(j);
              if (escaped == 'u') {
                literal.append((char) Integer.parseInt(source.substring(j + 1, j + 5), 16));
                j += 4;
              } else {
                literal.append(switch (escaped) {
                  case 'n' -> '\n';
                  case 't' -> '\t';
                  case 'r' -> '\r';
                  default -> escaped;
                });
              }
            } else {
              literal.append(source.charAt(j));
            }
            j++;
          }
          pieces.add(new Piece(false, code.toString()));
          code.setLength(0);
          pieces.add(new Piece(true, literal.toString()));
          i = j + 1;
        } else {
          code.append(c);
          i++;
        }
      }
      pieces.add(new Piece(false, code.toString()));
      return pieces;
    }

    static String withoutComments(String source) {
      var out = new StringBuilder();
      for (var piece : pieces(source)) {
        out.append(piece.literal() ? "\"" + piece.text().replace("\"", "'") + "\"" : piece.text());
      }
      return out.toString();
    }

    private static int endOfLine(String source, int from) {
      int end = source.indexOf('\n', from);
      return end < 0 ? source.length() : end;
    }
  }
}
