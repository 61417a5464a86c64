package org.folio.sidecar.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.folio.sidecar.support.ProjectHome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ops/set-project-url.sh as an operator moving the project runs it, on a copy of the files it may edit: the links
 * and the image's repository move together, the scripts' image is the new one, and nothing names the old home.
 */
class SetProjectUrlTest {

  private static final Path PROJECT = Path.of("..");
  private static final List<String> PARTS = List.of("build-config", "ops", "k8s", "docs", "image", "README.md",
    "CHANGELOG.md", "pom.xml");

  @TempDir
  Path copy;

  private record Run(int exit, String output) {
  }

  private Run run(String... command) throws IOException, InterruptedException {
    var process = new ProcessBuilder(command).directory(copy.toFile()).redirectErrorStream(true).start();
    var output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Run(process.exitValue(), output);
  }

  private void copyProject() throws IOException {
    for (var part : PARTS) {
      try (var paths = Files.walk(PROJECT.resolve(part))) {
        for (var path : paths.toList()) {
          var target = copy.resolve(PROJECT.relativize(path).toString());
          if (Files.isDirectory(path)) {
            Files.createDirectories(target);
          } else {
            Files.copy(path, target);
          }
        }
      }
    }
  }

  private List<Path> filesNaming(String text) throws IOException {
    var found = new ArrayList<Path>();
    try (Stream<Path> files = Files.walk(copy)) {
      for (var file : files.filter(Files::isRegularFile).toList()) {
        if (new String(Files.readAllBytes(file), StandardCharsets.UTF_8).contains(text)) {
          found.add(copy.relativize(file));
        }
      }
    }
    return found;
  }

  @Test
  void aGithubHomeMovesTheLinksAndTheImageRepositoryTogether() throws Exception {
    copyProject();
    var oldUrl = ProjectHome.url(copy);
    var oldImage = ProjectHome.imageRepository(copy);
    assertThat(filesNaming(oldImage)).contains(Path.of("k8s/base/deployment.yaml"), Path.of("docs/operations.md"));

    var moved = run("bash", "ops/set-project-url.sh", "https://github.com/Example-Org/folio-caching-sidecar/");

    assertThat(moved.exit()).as(moved.output()).isZero();
    assertThat(ProjectHome.url(copy)).isEqualTo("https://github.com/Example-Org/folio-caching-sidecar");
    assertThat(ProjectHome.imageRepository(copy)).isEqualTo("ghcr.io/example-org/folio-caching-sidecar");
    assertThat(filesNaming(oldUrl)).isEmpty();
    assertThat(filesNaming(oldImage)).isEmpty();
    assertThat(Files.readString(copy.resolve("ops/prometheus/sidecar-rules.yaml")))
      .contains("runbook_url: https://github.com/Example-Org/folio-caching-sidecar/blob/main/docs/runbooks.md#");
    var image = run("bash", "-c", ". image/name.sh && echo \"$IMAGE\"").output().strip();
    assertThat(image).startsWith("ghcr.io/example-org/folio-caching-sidecar:");
    assertThat(Files.readString(copy.resolve("k8s/base/deployment.yaml"))).contains("image: " + image + "\n");
  }

  @Test
  void anotherHomeMustNameItsImageRepository() throws Exception {
    copyProject();
    var oldImage = ProjectHome.imageRepository(copy);

    var refused = run("bash", "ops/set-project-url.sh", "https://git.example.org/folio/sidecar");
    assertThat(refused.exit()).isEqualTo(2);
    assertThat(refused.output()).contains("give its image repository too");
    assertThat(ProjectHome.imageRepository(copy)).isEqualTo(oldImage);

    var moved = run("bash", "ops/set-project-url.sh", "https://git.example.org/folio/sidecar",
      "registry.example.org/folio/sidecar");
    assertThat(moved.exit()).as(moved.output()).isZero();
    assertThat(ProjectHome.imageRepository(copy)).isEqualTo("registry.example.org/folio/sidecar");
    assertThat(filesNaming(oldImage)).isEmpty();
  }
}
