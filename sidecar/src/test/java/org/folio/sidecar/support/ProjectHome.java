package org.folio.sidecar.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The project's home as build-config/project.env sets it, in one place: its URL and the image's repository. */
public final class ProjectHome {

  private static final Path FILE = Path.of("build-config/project.env");

  private ProjectHome() {
  }

  /** PROJECT_URL of {@code root}'s project.env. */
  public static String url(Path root) throws IOException {
    return setting(root, "PROJECT_URL");
  }

  /** IMAGE_REPOSITORY of {@code root}'s project.env. */
  public static String imageRepository(Path root) throws IOException {
    return setting(root, "IMAGE_REPOSITORY");
  }

  private static String setting(Path root, String name) throws IOException {
    return Files.readAllLines(root.resolve(FILE)).stream().filter(line -> line.startsWith(name + "="))
      .map(line -> line.substring(name.length() + 1).strip()).findFirst().orElseThrow();
  }
}
