package org.folio.sidecar.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Fails the build when a test JVM's output shows a buffer owned wrongly or an exception nobody handled: Netty's leak
 * detector (run at paranoid in every test JVM, root pom.xml) reports a buffer never released with {@code LEAK:}, a
 * buffer released twice throws {@code IllegalReferenceCountException}, and an exception thrown on an event loop
 * that no handler took is logged by Quarkus as {@code Uncaught exception received by Vert.x} (a stack trace at
 * ERROR in the sidecar's log). Each may be logged by a thread the test never joins, so a
 * test can pass while its output holds one; the build reads every test class's output file after the tests
 * ({@code *-output.txt}, written by Surefire and Failsafe with redirectTestOutputToFile).
 */
public final class TestOutputCheck {

  static final List<String> MARKS = List.of("LEAK:", "IllegalReferenceCountException",
    "Uncaught exception received by Vert.x");
  private static final int SHOWN = 5;

  private TestOutputCheck() {
  }

  /**
   * Arguments: the build's start ({@code maven.build.timestamp}, ISO-8601 in UTC), then report folders; one that
   * does not exist had no tests run. Files older than the build are an earlier run's.
   */
  public static void main(String[] args) {
    var since = Instant.parse(args[0]);
    var found = new ArrayList<String>();
    for (int i = 1; i < args.length; i++) {
      found.addAll(findings(Path.of(args[i]), since));
    }
    if (!found.isEmpty()) {
      throw new IllegalStateException(
        "A buffer released twice or never, or an uncaught exception (" + String.join(" or ", MARKS)
          + ") in the tests' output:\n" + String.join("\n", found.subList(0, Math.min(SHOWN, found.size())))
          + (found.size() > SHOWN ? "\n... and " + (found.size() - SHOWN) + " more" : ""));
    }
  }

  /**
   * Each line of a test output file in {@code folder}, written {@code since} then, that shows a wrongly owned
   * buffer, with its file.
   */
  public static List<String> findings(Path folder, Instant since) {
    if (!Files.isDirectory(folder)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(folder)) {
      var found = new ArrayList<String>();
      for (var file : files.filter(file -> file.getFileName().toString().endsWith("-output.txt")
        && !modified(file).isBefore(since)).sorted().toList()) {
        // the output holds whatever a test printed, not only text
        try (var lines = Files.lines(file, StandardCharsets.ISO_8859_1)) {
          lines.filter(line -> MARKS.stream().anyMatch(line::contains))
            .forEach(line -> found.add(file.getFileName() + ": " + line.strip()));
        }
      }
      return found;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Instant modified(Path file) {
    try {
      return Files.getLastModifiedTime(file).toInstant();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
