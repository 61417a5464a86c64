package org.folio.sidecar.load.cli;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A harness's options as load/bench passes them on: {@code --name value} pairs (a repeatable one read with
 * {@link #values}) and flags, which the harness tests with {@code args.contains}.
 */
public final class Args {

  private Args() {
  }

  /** The value after {@code name}; empty when the option is missing or last. */
  public static Optional<String> option(List<String> args, String name) {
    int index = args.indexOf(name);
    return index >= 0 && index + 1 < args.size() ? Optional.of(args.get(index + 1)) : Optional.empty();
  }

  public static int intOption(List<String> args, String name, int fallback) {
    return option(args, name).map(Integer::parseInt).orElse(fallback);
  }

  /** Every value of a repeatable option, in order. */
  public static List<String> values(List<String> args, String name) {
    var found = new ArrayList<String>();
    for (int i = 0; i + 1 < args.size(); i++) {
      if (args.get(i).equals(name)) {
        found.add(args.get(i + 1));
      }
    }
    return found;
  }

  /** Where the report goes, absolute: {@code --out DIR}, else {@code load/results/<defaultName>} of the project. */
  public static Path out(List<String> args, String defaultName) {
    return option(args, "--out").map(Path::of).orElse(project().resolve("load/results").resolve(defaultName))
      .toAbsolutePath();
  }

  /** The local time now in {@code pattern}: the stamp in a report folder's default name. */
  public static String now(String pattern) {
    return LocalDateTime.now().format(DateTimeFormatter.ofPattern(pattern));
  }

  /** The project the harness runs in: scripts/run-main.sh starts every harness at its root. */
  private static Path project() {
    return Path.of("").toAbsolutePath();
  }
}
