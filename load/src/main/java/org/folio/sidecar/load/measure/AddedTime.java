package org.folio.sidecar.load.measure;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The time sidecars add to requests, as their own access logs tell it: total time less the module's (or, on
 * egress, the target's) time, for the lines a phase appended. Gatling's figures for the same requests also hold
 * every stall of the shared machine (another process's GC, a burst of Keycloak work); these hold only what the
 * sidecars spent.
 */
public final class AddedTime {

  /** Percentiles in microseconds over {@code count} access lines. */
  public record Percentiles(int count, long p50, long p99, long p999, long max) {
    public static final Percentiles NONE = new Percentiles(0, 0, 0, 0, 0);
  }

  private static final Pattern TIMES = Pattern.compile(" total_ms=(\\d+)\\.(\\d{3}) module_ms=(\\d+)\\.(\\d{3})$");

  private final Map<Path, Long> offsets = new LinkedHashMap<>();

  private AddedTime() {
  }

  /** Marks where the phase starts in each sidecar's log. */
  public static AddedTime from(List<Path> logs) {
    var mark = new AddedTime();
    logs.forEach(log -> mark.offsets.put(log, log.toFile().length()));
    return mark;
  }

  /**
   * Reads the access lines appended since the mark, in all the logs, that begin with {@code linePrefix} (such as
   * "GET /users/", or "" for all).
   */
  public Percentiles read(String linePrefix) throws IOException {
    var added = new long[1024];
    int count = 0;
    for (var line : appended()) {
      // Quarkus' console format: "<date> <time> INFO  [transaction] (<thread>) <message>"
      int marker = line.indexOf("[transaction] (");
      int message = marker < 0 ? -1 : line.indexOf(") ", marker) + 2;
      var times = TIMES.matcher(line);
      if (message < 2 || !line.startsWith(linePrefix, message) || !times.find()) {
        continue;
      }
      long total = Long.parseLong(times.group(1)) * 1000 + Long.parseLong(times.group(2));
      long module = Long.parseLong(times.group(3)) * 1000 + Long.parseLong(times.group(4));
      if (count == added.length) {
        added = Arrays.copyOf(added, count * 2);
      }
      added[count++] = total - module;
    }
    if (count == 0) {
      return Percentiles.NONE;
    }
    Arrays.sort(added, 0, count);
    return new Percentiles(count, at(added, count, 0.5), at(added, count, 0.99), at(added, count, 0.999),
      added[count - 1]);
  }

  private List<String> appended() throws IOException {
    var lines = new ArrayList<String>();
    for (var log : offsets.entrySet()) {
      try (var file = new RandomAccessFile(log.getKey().toFile(), "r")) {
        var bytes = new byte[(int) Math.max(0, file.length() - log.getValue())];
        file.seek(log.getValue());
        file.readFully(bytes);
        lines.addAll(Arrays.asList(new String(bytes, StandardCharsets.UTF_8).split("\n")));
      }
    }
    return lines;
  }

  private static long at(long[] sorted, int count, double quantile) {
    return sorted[Math.min(count - 1, (int) Math.ceil(quantile * count) - 1)];
  }
}
