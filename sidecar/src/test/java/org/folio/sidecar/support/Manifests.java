package org.folio.sidecar.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.yaml.snakeyaml.Yaml;

/** The Kubernetes manifests under k8s/, parsed as files (rendered: {@link Kustomize}). */
public final class Manifests {

  public static final Path ROOT = Path.of("../k8s");

  private Manifests() {
  }

  public static List<Path> files() {
    try (Stream<Path> paths = Files.walk(ROOT)) {
      // folio-helm-v2-values.yaml is a chart's values, not a Kubernetes object
      return paths.filter(path -> path.toString().endsWith(".yaml")
        && !path.getFileName().toString().equals("folio-helm-v2-values.yaml")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @SuppressWarnings("unchecked")
  public static List<Map<String, Object>> documents(Path file) {
    try {
      var documents = new ArrayList<Map<String, Object>>();
      for (var document : new Yaml().loadAll(Files.readString(file))) {
        documents.add((Map<String, Object>) document);
      }
      return documents;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static Map<String, Object> base(String file) {
    return documents(ROOT.resolve("base").resolve(file)).get(0);
  }

  /** The sidecar container of the base Deployment. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> sidecarContainer() {
    var spec = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) base("deployment.yaml")
      .get("spec")).get("template")).get("spec");
    return ((List<Map<String, Object>>) spec.get("containers")).stream()
      .filter(container -> "sidecar".equals(container.get("name"))).findFirst().orElseThrow();
  }

  @SuppressWarnings("unchecked")
  public static String probePath(String probe) {
    var httpGet = (Map<String, Object>) ((Map<String, Object>) sidecarContainer().get(probe)).get("httpGet");
    return (String) httpGet.get("path");
  }
}
