package org.folio.sidecar.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * What docs/*.md and README.md cite must exist in the code: an operator greps for a log line, queries a metric or
 * label, sets a variable and trusts its default. Each citation is checked against the sources (not a live scrape,
 * so a metric or line that only appears under a fault counts too), and a failure names the doc, its line and the
 * citation. What counts as a citation:
 * <ul>
 * <li>a log line: a backticked text with a space, right after "grep", "line(s)", "logs", "logged" or a level name,
 * or a fenced block after a paragraph that announces a line; {@code <cause>}, {@code ...} and {@code …} stand for
 * any text. It must be the rendering of one string expression of sidecar/src/main/java (its non-literal parts and
 * format specifiers standing for any text, one nested expression allowed, at least 70 % of it literal) or of a
 * message of image/entrypoint.sh;</li>
 * <li>a metric: every {@code sidecar_*} name, registered under that name (Prometheus' unit and type suffixes
 * added);</li>
 * <li>a label: {@code sidecar_x{label="value"}}: the label is a tag key of the code, the value a string literal or
 * an enum constant of it;</li>
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

  private static final Pattern BACKTICKED = Pattern.compile("`([^`]+)`");
  private static final Pattern LOG_CUE = Pattern.compile(
    "(?i:grep|lines?|logs|logged|log line|says|writes|prints)\\s*:?\\s*$|\\b(?:WARN|INFO|ERROR|DEBUG|TRACE)\\s*:?\\s*$");
  private static final Pattern BLOCK_CUE = Pattern.compile("(?i)(WARN|INFO|DEBUG|ERROR|log) lines?\\b.*:\\s*$");
  private static final Pattern NOT_A_LINE = Pattern.compile(
    "^(kubectl|curl|admin (?:GET|POST)|ops/|\\./|grep|podman|helm|load/|image/|sidecar_|cache_|jvm_|rate\\(|sum|\\{|\").*");
  private static final Pattern PLACEHOLDER = Pattern.compile("<[^>]+>|\\.\\.\\.|…|\\bN\\b");
  private static final Pattern METRIC = Pattern.compile("(?<![A-Za-z0-9_>.-])sidecar_[a-z0-9_]*[a-z0-9]\\b");
  private static final Pattern SELECTOR = Pattern.compile("(sidecar_[a-z0-9_]+)\\{([^}]*)}");
  private static final Pattern MATCHER = Pattern.compile("([a-z_]+)\\s*(=~|!~|!=|=)\\s*\"([^\"]*)\"");
  private static final Pattern VARIABLE = Pattern.compile("(?<![A-Za-z0-9_.$-])([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\\b");
  private static final Pattern FORMAT = Pattern.compile("%[-#+ 0,(]*\\d*(?:\\.\\d+)?[sdfxXbcneg]");
  /** Named in the docs but not variables of this sidecar: Kafka's protocol values, variables said to be gone. */
  private static final Set<String> NOT_VARIABLES = Set.of("SASL_PLAINTEXT", "SASL_SSL",
    "SIDECAR_AUTHZ_CACHE_ADMIN_ENABLED", "SIDECAR_AUTHZ_CACHE_ADMIN_TOKEN");
  private static final Pattern PROSE_DEFAULT = Pattern
    .compile("`([A-Z][A-Z0-9_]+)` \\((\\d+ ?(?:ms|s|min|minutes|h))\\)");
  private static final Pattern DURATION = Pattern.compile("(\\d+) ?(ms|s|m|min|minutes|h)");
  private static final Set<String> METRIC_SUFFIXES = Set.of("", "_total", "_count", "_sum", "_bucket", "_max",
    "_seconds", "_seconds_count", "_seconds_sum", "_seconds_bucket", "_seconds_max", "_bytes");

  private final List<String> missing = new ArrayList<>();
  private final Map<String, Integer> checked = new TreeMap<>();

  @Test
  void everyCitedLineMetricLabelVariableAndDefaultExistsInTheCode() throws IOException {
    var code = new Code();
    for (var doc : docs()) {
      var lines = Files.readAllLines(doc);
      var name = ROOT.relativize(doc).toString();
      checkLogLines(name, lines, code);
      checkMetrics(name, lines, code);
      checkVariables(name, lines, code);
      if (name.endsWith("configuration.md")) {
        checkDefaults(name, lines, code);
      }
      checkDefaultsInProse(name, lines, code);
    }
    System.out.println("[docs] citations checked: " + checked + ", missing: " + missing.size());
    assertThat(missing).as("citations of docs/*.md and README.md the code does not have (of %s checked)", checked)
      .isEmpty();
    assertThat(checked.get("log line")).as("log lines checked").isGreaterThanOrEqualTo(10);
    assertThat(checked.get("metric")).as("metrics checked").isGreaterThanOrEqualTo(80);
    assertThat(checked.get("label")).as("labels checked").isGreaterThanOrEqualTo(15);
    assertThat(checked.get("variable")).as("variables checked").isGreaterThanOrEqualTo(700);
    assertThat(checked.get("default")).as("defaults checked").isGreaterThanOrEqualTo(140);
  }

  @Test
  void aLineTheCodeCannotPrintIsCaught() throws IOException {
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
  }

  private void checkLogLines(String doc, List<String> lines, Code code) {
    for (int i = 0; i < lines.size(); i++) {
      var line = lines.get(i);
      if (line.startsWith("```") && i > 0 && cuesABlock(lines, i)) {
        int j = i + 1;
        for (; j < lines.size() && !lines.get(j).startsWith("```"); j++) {
          if (!lines.get(j).isBlank()) {
            checkLogLine(doc, j + 1, lines.get(j).strip(), code);
          }
        }
        i = j;
        continue;
      }
      var m = BACKTICKED.matcher(line);
      while (m.find()) {
        var text = m.group(1);
        // a citation may open a line, its cue ending the line before
        var before = !line.substring(0, m.start()).isBlank() || i == 0
          ? line.substring(Math.max(0, m.start() - 40), m.start())
          : lines.get(i - 1) + " ";
        if (text.contains(" ") && LOG_CUE.matcher(before).find() && !NOT_A_LINE.matcher(text).matches()) {
          checkLogLine(doc, i + 1, text, code);
        }
      }
    }
  }

  private static boolean cuesABlock(List<String> lines, int fence) {
    int k = fence - 1;
    while (k > 0 && lines.get(k).isBlank()) {
      k--;
    }
    return BLOCK_CUE.matcher(lines.get(k)).find();
  }

  private void checkLogLine(String doc, int line, String text, Code code) {
    count("log line");
    System.out.println("[docs] log line " + doc + ":" + line + " `" + text + "`");
    for (var fragment : PLACEHOLDER.split(text)) {
      if (fragment.strip().length() >= 4 && !code.prints(fragment)) {
        missing.add(doc + ":" + line + " log line `" + text + "`: no string of the code renders '" + fragment + "'");
        return;
      }
    }
  }

  private void checkMetrics(String doc, List<String> lines, Code code) {
    for (int i = 0; i < lines.size(); i++) {
      var line = lines.get(i);
      var m = METRIC.matcher(line);
      while (m.find()) {
        count("metric");
        if (!code.hasMetric(m.group())) {
          missing.add(doc + ":" + (i + 1) + " metric `" + m.group() + "`: no meter of the code is exported so");
        }
      }
      var s = SELECTOR.matcher(line);
      while (s.find()) {
        var matchers = MATCHER.matcher(s.group(2));
        while (matchers.find()) {
          count("label");
          var label = matchers.group(1);
          var op = matchers.group(2);
          var value = matchers.group(3);
          if (!code.literals.contains(label)) {
            missing.add(doc + ":" + (i + 1) + " label `" + label + "` of `" + s.group(1) + "`: no such tag key");
          } else if (op.equals("=") && !value.isEmpty() && !code.isValue(value)) {
            missing.add(doc + ":" + (i + 1) + " label value `" + label + "=\"" + value + "\"` of `" + s.group(1)
              + "`: the code has no such value");
          }
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

  /** What the sources say: their string expressions, literals, meters, variables and defaults. */
  static final class Code {

    final List<String> expressions = new ArrayList<>();
    final Set<String> literals = new HashSet<>();
    final Set<String> enumConstants = new HashSet<>();
    final Set<String> meters = new HashSet<>();
    final Set<String> meterSuffixes = new HashSet<>();
    final Set<String> variables = new HashSet<>();
    final Set<String> families = new HashSet<>();
    final Set<String> suffixes = new HashSet<>();
    final Map<String, String> defaults = new LinkedHashMap<>();
    private final Map<Character, List<Integer>> byFirstChar = new HashMap<>();

    Code() throws IOException {
      try (Stream<Path> files = Files.walk(MAIN)) {
        for (var file : files.filter(p -> p.toString().endsWith(".java")).toList()) {
          var source = Files.readString(file);
          readJava(source);
          if (source.contains("@ConfigMapping")) {
            readMapping(source);
          }
        }
      }
      readProperties(Files.readString(PROPERTIES));
      readScripts();
      for (int e = 0; e < expressions.size(); e++) {
        byFirstChar.computeIfAbsent(expressions.get(e).charAt(0), c -> new ArrayList<>()).add(e);
      }
    }

    boolean hasMetric(String name) {
      for (var meter : meters) {
        var base = meter.replace('.', '_').replace('-', '_');
        var names = new ArrayList<String>();
        names.add(base);
        meterSuffixes.forEach(suffix -> names.add(base + suffix.replace('.', '_')));
        for (var candidate : names) {
          if (name.startsWith(candidate) && METRIC_SUFFIXES.contains(name.substring(candidate.length()))) {
            return true;
          }
        }
      }
      return false;
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
     */
    boolean prints(String cited) {
      var text = cited.strip();
      Map<State, Integer> states = new HashMap<>();
      for (int e = 0; e < expressions.size(); e++) {
        var expression = expressions.get(e);
        for (int p = 0; p < expression.length(); p++) {
          if (expression.charAt(p) == ANY || expression.charAt(p) == text.charAt(0)) {
            states.put(new State(e, p, -1, 0), 0);
          }
        }
      }
      for (int i = 0; i < text.length() && !states.isEmpty(); i++) {
        states = step(closure(states), text.charAt(i), i == text.length() - 1);
      }
      int best = states.values().stream().mapToInt(Integer::intValue).max().orElse(-1);
      return best >= Math.max(6, text.strip().length() * 7 / 10);
    }

    private record State(int outer, int p, int inner, int q) {
    }

    private Map<State, Integer> closure(Map<State, Integer> states) {
      var result = new HashMap<>(states);
      var work = new ArrayList<>(states.keySet());
      while (!work.isEmpty()) {
        var s = work.remove(work.size() - 1);
        int literal = result.get(s);
        State next = null;
        if (s.inner() >= 0) {
          var inner = expressions.get(s.inner());
          if (s.q() == inner.length()) {
            next = new State(s.outer(), s.p() + 1, -1, 0);
          } else if (inner.charAt(s.q()) == ANY) {
            next = new State(s.outer(), s.p(), s.inner(), s.q() + 1);
          }
        } else if (s.p() < expressions.get(s.outer()).length() && expressions.get(s.outer()).charAt(s.p()) == ANY) {
          next = new State(s.outer(), s.p() + 1, -1, 0);
        }
        if (next != null && result.getOrDefault(next, -1) < literal) {
          result.put(next, literal);
          work.add(next);
        }
      }
      return result;
    }

    /** The last character must be one of the expression's own, not a part standing for any text. */
    private Map<State, Integer> step(Map<State, Integer> states, char c, boolean last) {
      var next = new HashMap<State, Integer>();
      states.forEach((s, literal) -> {
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
          if (literal > 0) {
            for (var inner : byFirstChar.getOrDefault(c, List.of())) {
              next.merge(new State(s.outer(), s.p(), inner, 1), literal + 1, Math::max);
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
      var method = Pattern.compile("((?:@With\\w+\\(\"[^\"]*\"\\)\\s*)*)([\\w.<>, ]+?)\\s+(\\w+)\\(\\);")
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
