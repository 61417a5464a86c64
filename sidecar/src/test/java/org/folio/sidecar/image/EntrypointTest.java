package org.folio.sidecar.image;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image's entrypoint (image/entrypoint.sh) under the operators' variables, run by the host's POSIX shell with
 * {@code --dry-run}: the java command it would exec, one argument per line, and its one start line. The floor is
 * image/Containerfile's, the chart's options those of k8s/folio-helm-v2-sidecar.env.
 */
class EntrypointTest {

  private static final Path ENTRYPOINT = Path.of("../image/entrypoint.sh");
  private static final String FLOOR = read("../image/Containerfile", "ENV JAVA_OPTS_FLOOR=")
    .replaceAll("^\"|\"$", "");
  private static final String CHART_JAVA_OPTS = read("../k8s/folio-helm-v2-sidecar.env", "JAVA_OPTS=");

  @TempDir
  Path caches;

  @Test
  void withoutOperatorOptionsTheImageRunsItsWholeFloorWithTheSerialCache() throws Exception {
    touch("app-serial.aot", "app-zgc.aot");

    var run = run(Map.of());

    assertThat(run.command()).containsExactly(concat(List.of("/opt/java/bin/java",
      "-XX:AOTCache=" + caches.resolve("app-serial.aot")), List.of(FLOOR.split(" ")),
      List.of("-jar", "/deployments/quarkus-run.jar")));
    assertThat(run.said()).startsWith("sidecar entrypoint: collector SerialGC, AOT cache " + caches
      + "/app-serial.aot, image options added: " + FLOOR);
  }

  @Test
  void theChartsJavaOptsKeepTheFloorsLimitsAndGetTheZgcCache() throws Exception {
    touch("app-serial.aot", "app-zgc.aot");

    var run = run(Map.of("JAVA_OPTS", CHART_JAVA_OPTS));

    var chart = List.of(CHART_JAVA_OPTS.split(" "));
    assertThat(run.command()).containsSubsequence(chart)
      .contains("-Dquarkus.log.category.'org.apache.kafka'.level=INFO")
      .contains("-XX:AOTCache=" + caches.resolve("app-zgc.aot"), "-XX:MaxDirectMemorySize=32m", "-Xss512k",
        "-XX:MetaspaceSize=48m", "-Djava.io.tmpdir=/tmp")
      .doesNotContain("-XX:+UseSerialGC", "-XX:AOTCache=" + caches.resolve("app-serial.aot"));
    assertThat(run.command()).filteredOn(argument -> argument.startsWith("-Xmx")).containsExactly("-Xmx64m");
    assertThat(run.command()).filteredOn(argument -> argument.startsWith("-Djava.util.logging.manager=")).hasSize(1);
    assertThat(run.said()).contains("collector ZGC").doesNotContain("not read here");
  }

  @Test
  void javaOptsAppendAndJavaOptionsAddToAReplacingJavaOptsAndOverrideTheFloor() throws Exception {
    var run = run(Map.of("JAVA_OPTS", "-XX:+UseZGC -Xmx64m", "JAVA_OPTIONS", "-Dfrom.options=1",
      "JAVA_OPTS_APPEND", "-XX:MaxDirectMemorySize=48m -XX:ThreadStackSize=256"));

    assertThat(run.command()).containsSubsequence("-XX:+UseZGC", "-Xmx64m", "-Dfrom.options=1",
      "-XX:MaxDirectMemorySize=48m", "-XX:ThreadStackSize=256")
      .doesNotContain("-XX:MaxDirectMemorySize=32m", "-Xss512k");
  }

  @Test
  void javaMaxMemRatioSizesTheHeapUnlessTheOptionsNameOne() throws Exception {
    assertThat(run(Map.of("JAVA_MAX_MEM_RATIO", "50.7")).command()).contains("-XX:MaxRAMPercentage=50")
      .noneMatch(argument -> argument.startsWith("-Xmx"));
    assertThat(run(Map.of("JAVA_MAX_MEM_RATIO", "50", "JAVA_OPTS", "-Xmx128m")).command()).contains("-Xmx128m")
      .noneMatch(argument -> argument.startsWith("-XX:MaxRAMPercentage"));
    assertThat(run(Map.of("JAVA_MAX_MEM_RATIO", "0")).command()).contains("-Xmx64m");
  }

  @Test
  void aRatioThatIsNoNumberStopsTheStartWithOneLineNamingIt() throws Exception {
    var run = run(Map.of("JAVA_MAX_MEM_RATIO", "half"));

    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.command()).isEmpty();
    assertThat(run.said()).isEqualTo("sidecar entrypoint: JAVA_MAX_MEM_RATIO must be a percentage, not 'half'");
  }

  @Test
  void javaDebugStartsTheDebugAgentOnItsPort() throws Exception {
    assertThat(run(Map.of("JAVA_DEBUG", "true")).command())
      .contains("-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=*:5005");
    assertThat(run(Map.of("JAVA_DEBUG", "true", "JAVA_DEBUG_PORT", "8787", "JAVA_DEBUG_SUSPEND", "true")).command())
      .contains("-agentlib:jdwp=transport=dt_socket,server=y,suspend=y,address=*:8787");
    assertThat(run(Map.of("JAVA_DEBUG", "false")).command()).noneMatch(argument -> argument.contains("jdwp"));
  }

  @Test
  void javaDiagnosticsTracksNativeMemoryAndLogsTheCollector() throws Exception {
    assertThat(run(Map.of("JAVA_DIAGNOSTICS", "true")).command()).contains("-XX:NativeMemoryTracking=summary",
      "-Xlog:gc*:stdout:time");
  }

  @Test
  void upstreamLauncherVariablesThatAreNotReadAreNamedInTheStartLine() throws Exception {
    var run = run(Map.of("GC_MAX_METASPACE_SIZE", "100", "JAVA_APP_JAR", "/deployments/other.jar"));

    assertThat(run.said())
      .endsWith("; not read here (upstream's launcher variables): JAVA_APP_JAR GC_MAX_METASPACE_SIZE");
    assertThat(run.command()).noneMatch(argument -> argument.contains("MaxMetaspaceSize"))
      .contains("/deployments/quarkus-run.jar");
  }

  @Test
  void anEmptyJavaAotOptsOrAMissingCacheRunsWithoutOne() throws Exception {
    touch("app-serial.aot");

    assertThat(run(Map.of("JAVA_AOT_OPTS", "")).command()).noneMatch(argument -> argument.startsWith("-XX:AOT"));
    var zgc = run(Map.of("JAVA_OPTS", "-XX:+UseZGC"));
    assertThat(zgc.command()).noneMatch(argument -> argument.startsWith("-XX:AOT"));
    assertThat(zgc.said()).contains("AOT cache none");
    assertThat(run(Map.of("JAVA_AOT_OPTS", "-XX:AOTCacheOutput=/aot/x.aot")).command())
      .contains("-XX:AOTCacheOutput=/aot/x.aot");
  }

  @Test
  void argumentsGoToTheApplicationAndNothingIsGlobbed() throws Exception {
    Files.createFile(caches.resolve("-Dglobbed"));

    var run = run(Map.of("JAVA_OPTS", "-D*"), "--dry-run", "one", "two");

    assertThat(run.command()).contains("-D*").endsWith("-jar", "/deployments/quarkus-run.jar", "one", "two");
  }

  @Test
  void withJsonLogsItsOwnLineIsOneJsonObjectToo() throws Exception {
    for (var variable : List.of("QUARKUS_LOG_CONSOLE_JSON_ENABLED", "QUARKUS_LOG_CONSOLE_JSON")) {
      // a floor option with a quote and a backslash: escaped, the line still parses
      var run = run(Map.of(variable, "true", "JAVA_OPTS_FLOOR", "-Dq=\"x\\y\""));

      var line = new JsonObject(run.said());
      assertThat(line.getString("level")).isEqualTo("INFO");
      assertThat(line.getString("loggerName")).isEqualTo("entrypoint");
      assertThat(line.getString("message")).startsWith("sidecar entrypoint: collector ")
        .endsWith("image options added: -Dq=\"x\\y\"");
    }
    var refused = run(Map.of("QUARKUS_LOG_CONSOLE_JSON_ENABLED", "true", "JAVA_MAX_MEM_RATIO", "half"));
    assertThat(refused.exit()).isEqualTo(1);
    assertThat(new JsonObject(refused.said()).getString("level")).isEqualTo("ERROR");
    // off, the plain line
    assertThat(run(Map.of("QUARKUS_LOG_CONSOLE_JSON_ENABLED", "false")).said()).startsWith("sidecar entrypoint: ");
  }

  private record Run(int exit, List<String> command, String said) {
  }

  private Run run(Map<String, String> variables, String... arguments) throws Exception {
    var command = new ArrayList<>(List.of("/bin/sh", ENTRYPOINT.toAbsolutePath().toString()));
    command.addAll(arguments.length == 0 ? List.of("--dry-run") : List.of(arguments));
    var builder = new ProcessBuilder(command).directory(caches.toFile());
    var env = builder.environment();
    env.clear();
    env.put("JAVA_OPTS_FLOOR", FLOOR);
    env.putAll(new HashMap<>(variables));
    env.put("SIDECAR_AOT_CACHE_DIR", caches.toString());
    var process = builder.start();
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    var out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    var err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    return new Run(process.exitValue(), out.isEmpty() ? List.of() : out.lines().toList(), err);
  }

  private void touch(String... names) throws IOException {
    for (var name : names) {
      Files.createFile(caches.resolve(name));
    }
  }

  @SafeVarargs
  private static String[] concat(List<String>... parts) {
    return Arrays.stream(parts).flatMap(List::stream).toArray(String[]::new);
  }

  private static String read(String file, String prefix) {
    try {
      return Files.readAllLines(Path.of(file)).stream().filter(line -> line.startsWith(prefix))
        .map(line -> line.substring(prefix.length())).findFirst().orElseThrow();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
