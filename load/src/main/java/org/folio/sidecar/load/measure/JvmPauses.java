package org.folio.sidecar.load.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The sidecars' own pauses, from the GC and safepoint logs each of them writes ({@link #JVM_OPTION}): what a tail
 * latency can be laid at the JVM's door for, and what it cannot.
 */
public record JvmPauses(int gcPauses, double gcMaxMillis, double gcTotalMillis, double safepointMaxMillis) {

  /** Not measured: the build wrote no GC log (another build given as baseline). */
  public static final JvmPauses NONE = new JvmPauses(0, 0, 0, 0);

  /** Added to each sidecar JVM of this build; {@code %p} keeps the six processes' logs apart. */
  public static String jvmOption(Path dir) {
    return "-Xlog:gc,safepoint:file=" + dir.resolve("jvm-%p.log") + ":uptime,tags";
  }

  private static final Pattern GC_PAUSE = Pattern.compile("\\[gc\\s*\\].*Pause.* (\\d+(?:\\.\\d+)?)ms$");
  private static final Pattern SAFEPOINT = Pattern.compile("\\[safepoint\\s*\\].*Total: (\\d+) ns");

  /** Reads every {@code jvm-*.log} in {@code dir}; none (another build as baseline) is {@link #NONE}. */
  public static JvmPauses read(Path dir) throws IOException {
    int count = 0;
    double max = 0;
    double total = 0;
    double safepointMax = 0;
    try (Stream<Path> files = Files.list(dir)) {
      var logs = files.filter(f -> f.getFileName().toString().matches("jvm-\\d+\\.log")).toList();
      if (logs.isEmpty()) {
        return NONE;
      }
      for (var file : logs) {
        for (var line : Files.readAllLines(file)) {
          var gc = GC_PAUSE.matcher(line);
          if (gc.find()) {
            double millis = Double.parseDouble(gc.group(1));
            count++;
            max = Math.max(max, millis);
            total += millis;
          }
          var safepoint = SAFEPOINT.matcher(line);
          if (safepoint.find()) {
            safepointMax = Math.max(safepointMax, Long.parseLong(safepoint.group(1)) / 1e6);
          }
        }
      }
    }
    return new JvmPauses(count, max, total, safepointMax);
  }
}
