package org.folio.sidecar.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.yaml.snakeyaml.Yaml;

/**
 * A kustomization rendered by the real kustomize, the one built into {@code kubectl} ({@code kubectl kustomize};
 * {@code KUBECTL} names another binary), parsed into its objects.
 */
public final class Kustomize {

  private Kustomize() {
  }

  /** The objects {@code kubectl kustomize dir} prints, in its order. */
  @SuppressWarnings("unchecked")
  public static List<Map<String, Object>> build(Path dir) {
    var kubectl = System.getenv().getOrDefault("KUBECTL", "kubectl");
    try {
      var errors = Files.createTempFile("kustomize", ".err");
      try {
        var process = new ProcessBuilder(kubectl, "kustomize", dir.toString())
          .redirectError(errors.toFile()).start();
        var output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
          throw new IllegalStateException("kubectl kustomize " + dir + " failed: " + Files.readString(errors));
        }
        var objects = new ArrayList<Map<String, Object>>();
        for (var document : new Yaml().loadAll(output)) {
          objects.add((Map<String, Object>) document);
        }
        return objects;
      } finally {
        Files.delete(errors);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + kubectl + " (kubectl with its built-in kustomize)", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * A kustomization in a new directory under target/ on top of {@code resource}, with {@code components} and the
   * fields in {@code body}: kustomize takes only relative paths, so the new directory stays beside the sources.
   */
  public static Path overlayOf(Path resource, List<Path> components, String body) {
    try {
      var dir = Files.createTempDirectory(Files.createDirectories(Path.of("target/kustomize")), "overlay")
        .toAbsolutePath();
      var text = new StringBuilder("resources: [" + dir.relativize(resource.toAbsolutePath().normalize()) + "]\n");
      if (!components.isEmpty()) {
        text.append("components:\n");
        components.forEach(component -> text.append("  - ")
          .append(dir.relativize(component.toAbsolutePath().normalize())).append('\n'));
      }
      Files.writeString(dir.resolve("kustomization.yaml"), text.append(body).toString());
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The pod template's spec of a Deployment (or any object with one), else null. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> podSpec(Map<String, Object> object) {
    if (object.get("spec") instanceof Map<?, ?> spec && spec.get("template") instanceof Map<?, ?> template) {
      return (Map<String, Object>) template.get("spec");
    }
    return null;
  }

  public static String kind(Map<String, Object> object) {
    return (String) object.get("kind");
  }

  @SuppressWarnings("unchecked")
  public static String name(Map<String, Object> object) {
    return (String) ((Map<String, Object>) object.get("metadata")).get("name");
  }
}
