package org.folio.sidecar.load.ab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Runs the Gatling module (load/gatling/) through the Maven wrapper and reads the figures back from the HTML report,
 * which in Gatling 3.15 is the only place that holds them (simulation.log is binary).
 */
final class GatlingRun {

  /** One request name's row of Gatling's statistics table; times in milliseconds. */
  record Stats(String name, long total, long ok, long ko, long min, long p50, long p75, long p95, long p99, long max,
    long mean) {
  }

  private static final Pattern ROW = Pattern.compile("<tr id=\"req_[^\"]*\"[^>]*>(.*?)</tr>", Pattern.DOTALL);
  private static final Pattern NAME = Pattern.compile("class=\"ellipsed-name\">([^<]*)<");
  private static final Pattern CELL = Pattern.compile("<td class=\"value [^\"]*col-(\\d+)\"[^>]*>([^<]*)</td>");

  private GatlingRun() {
  }

  /**
   * Runs {@code CirculationSimulation} with {@code properties}, logs to {@code log}, and moves the HTML report
   * to {@code reportDir}. Returns the statistics by request name.
   */
  static Map<String, Stats> run(Path projectDir, Map<String, String> properties, Path log, Path reportDir)
    throws IOException, InterruptedException {
    var results = projectDir.resolve("load/gatling/target/gatling");
    var command = new ArrayList<>(List.of(projectDir.resolve("mvnw").toString(), "-B", "-f",
      projectDir.resolve("load/gatling/pom.xml").toString(), "gatling:test",
      "-Dgatling.simulationClass=org.folio.sidecar.load.ab.CirculationSimulation"));
    properties.forEach((key, value) -> command.add("-D" + key + "=" + value));
    var builder = new ProcessBuilder(command).directory(projectDir.toFile()).redirectErrorStream(true)
      .redirectOutput(log.toFile());
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    var before = reports(results);
    int exit = builder.start().waitFor();
    var created = reports(results).stream().filter(dir -> !before.contains(dir))
      .max(Comparator.comparing(Path::toString))
      .orElseThrow(() -> new IOException("Gatling wrote no report (exit " + exit + "); see " + log));
    Files.move(created, reportDir);
    return parse(Files.readString(reportDir.resolve("index.html")));
  }

  static Map<String, Stats> parse(String html) {
    var stats = new LinkedHashMap<String, Stats>();
    var rows = ROW.matcher(html);
    while (rows.find()) {
      var row = rows.group(1);
      var name = NAME.matcher(row);
      if (!name.find()) {
        continue;
      }
      var cells = new LinkedHashMap<Integer, Long>();
      var cell = CELL.matcher(row);
      while (cell.find()) {
        var value = cell.group(2).trim().replace(",", "");
        cells.put(Integer.parseInt(cell.group(1)), value.isEmpty() || value.equals("-")
          ? 0
          : Math.round(Double.parseDouble(value)));
      }
      // columns: 2 total, 3 OK, 4 KO, 5 %KO, 6 count/s, 7 min, 8 p50, 9 p75, 10 p95, 11 p99, 12 max, 13 mean
      stats.put(name.group(1).trim(),
        new Stats(name.group(1).trim(), cells.getOrDefault(2, 0L), cells.getOrDefault(3, 0L),
          cells.getOrDefault(4, 0L), cells.getOrDefault(7, 0L), cells.getOrDefault(8, 0L), cells.getOrDefault(9, 0L),
          cells.getOrDefault(10, 0L), cells.getOrDefault(11, 0L), cells.getOrDefault(12, 0L),
          cells.getOrDefault(13, 0L)));
    }
    return stats;
  }

  private static List<Path> reports(Path results) throws IOException {
    if (!Files.isDirectory(results)) {
      return List.of();
    }
    try (Stream<Path> dirs = Files.list(results)) {
      return dirs.filter(Files::isDirectory).toList();
    }
  }
}
