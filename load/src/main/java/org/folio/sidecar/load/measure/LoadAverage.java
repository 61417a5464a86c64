package org.folio.sidecar.load.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine's load average, which reports print beside their figures: the machine is shared. */
public final class LoadAverage {

  private LoadAverage() {
  }

  /** The 1-, 5- and 15-minute figures; "unknown" where /proc cannot be read. */
  public static String now() {
    var line = line();
    if (line.equals("unknown")) {
      return line;
    }
    var fields = line.split("\\s+");
    return fields[0] + " " + fields[1] + " " + fields[2];
  }

  /** The whole of /proc/loadavg: the three figures, runnable and all tasks, the newest pid. */
  public static String line() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
