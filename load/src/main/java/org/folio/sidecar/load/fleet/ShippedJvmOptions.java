package org.folio.sidecar.load.fleet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JVM options the image ships ({@code JAVA_OPTS_FLOOR} in image/Containerfile, all of which the entrypoint adds when the operator sets none): the harnesses run the sidecar as an
 * operator would get it, so the footprint they report is the image's, and a change of the options there cannot
 * leave the benchmarks measuring another configuration.
 */
public final class ShippedJvmOptions {

  private static final Pattern JAVA_OPTS = Pattern.compile("^ENV JAVA_OPTS_FLOOR=\"([^\"]*)\"\\s*$");
  // read once per harness run: every fleet, report line and profile of the run uses the same options
  private static final List<String> OPTIONS = read();

  private ShippedJvmOptions() {
  }

  /** The options, from {@code image/Containerfile} of the project the harness runs in (its working directory). */
  public static List<String> list() {
    return OPTIONS;
  }

  private static List<String> read() {
    var containerfile = Path.of("image/Containerfile");
    try {
      return Files.readAllLines(containerfile).stream()
        .map(JAVA_OPTS::matcher)
        .filter(Matcher::matches)
        .findFirst()
        .map(match -> List.of(match.group(1).trim().split("\\s+")))
        .orElseThrow(() -> new IllegalStateException(containerfile + " sets no JAVA_OPTS_FLOOR"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The options as one line, for reports. */
  public static String line() {
    return String.join(" ", list());
  }
}
