package org.folio.sidecar.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.yaml.snakeyaml.Yaml;

/**
 * Renders a kustomization as {@code kubectl kustomize} does, for the subset k8s/ uses: resources, components,
 * namespace, name prefix and suffix, labels, images, ConfigMap generators (with kustomize's content-hash suffix)
 * and strategic-merge patches; names given to ConfigMaps, Secrets and the Deployment follow their renames into
 * the objects that refer to them. No kustomize binary is in Debian or Maven Central, so the tests and
 * ops/pod-smoke.sh read the overlay through this. Compared with {@code kubectl kustomize} on the example overlay:
 * the same objects, fields and references; only the hash suffix differs (see {@link #hash}).
 */
public final class Kustomize {

  private static final List<String> CONTAINER_LISTS = List.of("containers", "initContainers");

  // every name an object had before a prefix or suffix: patches and merges in later layers may use any of them
  private final Map<Map<String, Object>, List<String>> formerNames = new IdentityHashMap<>();

  private Kustomize() {
  }

  /** The objects {@code kubectl kustomize dir} would print, in its order: resources, then generated ones. */
  public static List<Map<String, Object>> build(Path dir) {
    var objects = new ArrayList<Map<String, Object>>();
    var hashed = new ArrayList<Map<String, Object>>();
    new Kustomize().apply(dir, objects, hashed);
    var renames = new HashMap<String, String>();
    for (var object : hashed) {
      var name = name(object);
      var hashedName = name + "-" + hash(object);
      metadata(object).put("name", hashedName);
      renames.put(kind(object) + "/" + name, hashedName);
    }
    rename(objects, renames);
    return objects;
  }

  /** Builds {@code dir} into {@code objects}; generated ConfigMaps still to be hashed go to {@code hashed}. */
  @SuppressWarnings("unchecked")
  private void apply(Path dir, List<Map<String, Object>> objects, List<Map<String, Object>> hashed) {
    var kustomization = load(dir.resolve("kustomization.yaml")).get(0);
    for (var resource : list(kustomization, "resources")) {
      var path = dir.resolve((String) resource);
      if (Files.isDirectory(path)) {
        // a base's own transformations apply to its objects only
        var built = new ArrayList<Map<String, Object>>();
        apply(path, built, hashed);
        objects.addAll(built);
      } else {
        objects.addAll(load(path));
      }
    }
    // a component, unlike a base, acts on everything gathered so far
    for (var component : list(kustomization, "components")) {
      apply(dir.resolve((String) component), objects, hashed);
    }
    for (var generator : list(kustomization, "configMapGenerator")) {
      generate((Map<String, Object>) generator, dir, objects, hashed);
    }
    for (var patch : list(kustomization, "patches")) {
      var document = load(dir.resolve((String) ((Map<String, Object>) patch).get("path"))).get(0);
      var target = objects.stream()
        .filter(object -> kind(object).equals(kind(document)) && named(object, name(document))).findFirst()
        .orElseThrow(() -> new IllegalStateException(dir + ": no " + kind(document) + " " + name(document)));
      merge(target, document);
    }
    for (var image : list(kustomization, "images")) {
      setImage(objects, (Map<String, Object>) image);
    }
    for (var labels : list(kustomization, "labels")) {
      addLabels(objects, (Map<String, Object>) labels);
    }
    var renames = new HashMap<String, String>();
    var prefix = (String) kustomization.getOrDefault("namePrefix", "");
    var suffix = (String) kustomization.getOrDefault("nameSuffix", "");
    var namespace = (String) kustomization.get("namespace");
    for (var object : objects) {
      if (!prefix.isEmpty() || !suffix.isEmpty()) {
        var renamed = prefix + name(object) + suffix;
        renames.put(kind(object) + "/" + name(object), renamed);
        formerNames.computeIfAbsent(object, key -> new ArrayList<>()).add(name(object));
        metadata(object).put("name", renamed);
      }
      if (namespace != null) {
        metadata(object).put("namespace", namespace);
      }
    }
    rename(objects, renames);
  }

  @SuppressWarnings("unchecked")
  private void generate(Map<String, Object> generator, Path dir, List<Map<String, Object>> objects,
    List<Map<String, Object>> hashed) {
    var data = new LinkedHashMap<String, Object>();
    for (var literal : (List<String>) generator.getOrDefault("literals", List.of())) {
      data.put(literal.substring(0, literal.indexOf('=')), literal.substring(literal.indexOf('=') + 1));
    }
    for (var envs : (List<String>) generator.getOrDefault("envs", List.of())) {
      for (var line : read(dir.resolve(envs)).split("\n")) {
        if (!line.isBlank() && !line.startsWith("#")) {
          data.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1));
        }
      }
    }
    var name = (String) generator.get("name");
    if ("merge".equals(generator.get("behavior"))) {
      var existing = objects.stream().filter(o -> "ConfigMap".equals(kind(o)) && named(o, name)).findFirst()
        .orElseThrow(() -> new IllegalStateException("no ConfigMap " + name + " to merge into"));
      ((Map<String, Object>) existing.computeIfAbsent("data", key -> new LinkedHashMap<>())).putAll(data);
      return;
    }
    var configMap = new LinkedHashMap<String, Object>();
    configMap.put("apiVersion", "v1");
    configMap.put("kind", "ConfigMap");
    configMap.put("metadata", new LinkedHashMap<>(Map.of("name", name)));
    configMap.put("data", data);
    objects.add(configMap);
    hashed.add(configMap);
  }

  private boolean named(Map<String, Object> object, String name) {
    return name.equals(name(object)) || formerNames.getOrDefault(object, List.of()).contains(name);
  }

  /**
   * A content hash in the form kustomize gives it: 10 characters of SHA-256 over the ConfigMap's kind, name and
   * data as sorted JSON, in kustomize's alphabet. Kustomize hashes a slightly different encoding, so the suffix
   * differs from {@code kubectl kustomize}'s; what matters here, that any change of content changes it, holds.
   */
  @SuppressWarnings("unchecked")
  static String hash(Map<String, Object> configMap) {
    var json = new StringBuilder("{\"data\":{");
    var data = new TreeMap<>((Map<String, Object>) configMap.get("data"));
    data.forEach((key, value) -> json.append(quote(key)).append(':').append(quote(String.valueOf(value))).append(','));
    if (!data.isEmpty()) {
      json.setLength(json.length() - 1);
    }
    json.append("},\"kind\":\"ConfigMap\",\"name\":").append(quote(name(configMap))).append('}');
    try {
      var hex = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
        .digest(json.toString().getBytes(StandardCharsets.UTF_8)));
      return hex.substring(0, 10).replace('0', 'g').replace('1', 'h').replace('3', 'k').replace('a', 'm')
        .replace('e', 't');
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String quote(String value) {
    var quoted = new StringBuilder("\"");
    for (char c : value.toCharArray()) {
      switch (c) {
        case '"' -> quoted.append("\\\"");
        case '\\' -> quoted.append("\\\\");
        case '\n' -> quoted.append("\\n");
        // Go's encoder escapes these for HTML safety
        case '<', '>', '&' -> quoted.append(String.format("\\u%04x", (int) c));
        default -> quoted.append(c);
      }
    }
    return quoted.append('"').toString();
  }

  /** Strategic merge as far as k8s/ needs it: maps recursively, lists of named items by name, else replaced. */
  @SuppressWarnings("unchecked")
  private static void merge(Map<String, Object> target, Map<String, Object> patch) {
    patch.forEach((key, value) -> {
      var present = target.get(key);
      if (present instanceof Map<?, ?> presentMap && value instanceof Map<?, ?> patchMap) {
        merge((Map<String, Object>) presentMap, (Map<String, Object>) patchMap);
      } else if (present instanceof List<?> presentList && value instanceof List<?> patchList
        && mergeKey(patchList) != null) {
        var keyName = Objects.requireNonNull(mergeKey(patchList));
        for (var item : (List<Map<String, Object>>) patchList) {
          var match = ((List<Map<String, Object>>) presentList).stream()
            .filter(existing -> Objects.equals(existing.get(keyName), item.get(keyName))).findFirst();
          if (match.isPresent()) {
            merge(match.get(), item);
          } else {
            ((List<Map<String, Object>>) presentList).add(item);
          }
        }
      } else {
        target.put(key, value);
      }
    });
  }

  private static String mergeKey(List<?> items) {
    if (items.isEmpty() || !(items.get(0) instanceof Map<?, ?> first)) {
      return null;
    }
    return first.containsKey("name") ? "name" : first.containsKey("mountPath") ? "mountPath" : null;
  }

  @SuppressWarnings("unchecked")
  private static void setImage(List<Map<String, Object>> objects, Map<String, Object> image) {
    for (var container : containers(objects)) {
      var current = (String) container.get("image");
      var name = current.contains(":") ? current.substring(0, current.lastIndexOf(':')) : current;
      if (name.equals(image.get("name"))) {
        var tag = image.containsKey("newTag") ? (String) image.get("newTag") : current.substring(name.length() + 1);
        container.put("image", image.getOrDefault("newName", name) + ":" + tag);
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static void addLabels(List<Map<String, Object>> objects, Map<String, Object> labels) {
    var pairs = (Map<String, Object>) labels.get("pairs");
    boolean selectors = Boolean.TRUE.equals(labels.get("includeSelectors"));
    for (var object : objects) {
      ((Map<String, Object>) metadata(object).computeIfAbsent("labels", key -> new LinkedHashMap<>())).putAll(pairs);
      if (!selectors) {
        continue;
      }
      var spec = (Map<String, Object>) object.get("spec");
      switch (kind(object)) {
        case "Service" -> ((Map<String, Object>) spec.computeIfAbsent("selector", key -> new LinkedHashMap<>()))
          .putAll(pairs);
        case "Deployment", "PodDisruptionBudget" -> {
          ((Map<String, Object>) ((Map<String, Object>) spec.get("selector")).get("matchLabels")).putAll(pairs);
          if (spec.get("template") instanceof Map<?, ?> template) {
            ((Map<String, Object>) ((Map<String, Object>) template.get("metadata"))
              .computeIfAbsent("labels", key -> new LinkedHashMap<>())).putAll(pairs);
          }
        }
        default -> {
        }
      }
    }
  }

  /** Points references (envFrom, volumes, the autoscaler's target) at renamed objects; keys are kind/name. */
  @SuppressWarnings("unchecked")
  private static void rename(List<Map<String, Object>> objects, Map<String, String> renames) {
    if (renames.isEmpty()) {
      return;
    }
    for (var container : containers(objects)) {
      for (var source : (List<Map<String, Object>>) container.getOrDefault("envFrom", List.of())) {
        renameRef(source.get("configMapRef"), "ConfigMap", "name", renames);
        renameRef(source.get("secretRef"), "Secret", "name", renames);
      }
      for (var env : (List<Map<String, Object>>) container.getOrDefault("env", List.of())) {
        if (env.get("valueFrom") instanceof Map<?, ?> from) {
          renameRef(from.get("configMapKeyRef"), "ConfigMap", "name", renames);
          renameRef(from.get("secretKeyRef"), "Secret", "name", renames);
        }
      }
    }
    for (var object : objects) {
      if ("HorizontalPodAutoscaler".equals(kind(object))) {
        renameRef(((Map<String, Object>) object.get("spec")).get("scaleTargetRef"), "Deployment", "name", renames);
      }
      var pod = podSpec(object);
      if (pod != null) {
        for (var volume : (List<Map<String, Object>>) pod.getOrDefault("volumes", List.of())) {
          renameRef(volume.get("configMap"), "ConfigMap", "name", renames);
          renameRef(volume.get("secret"), "Secret", "secretName", renames);
        }
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static void renameRef(Object reference, String kind, String field, Map<String, String> renames) {
    if (reference instanceof Map<?, ?> map) {
      var renamed = renames.get(kind + "/" + map.get(field));
      if (renamed != null) {
        ((Map<String, Object>) map).put(field, renamed);
      }
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

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> containers(List<Map<String, Object>> objects) {
    var containers = new ArrayList<Map<String, Object>>();
    for (var object : objects) {
      var pod = podSpec(object);
      if (pod != null) {
        CONTAINER_LISTS.forEach(key -> containers.addAll((List<Map<String, Object>>) pod.getOrDefault(key, List.of())));
      }
    }
    return containers;
  }

  public static String kind(Map<String, Object> object) {
    return (String) object.get("kind");
  }

  public static String name(Map<String, Object> object) {
    return (String) metadata(object).get("name");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> metadata(Map<String, Object> object) {
    return (Map<String, Object>) object.computeIfAbsent("metadata", key -> new LinkedHashMap<>());
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Map<String, Object> kustomization, String key) {
    return (List<Object>) kustomization.getOrDefault(key, List.of());
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> load(Path file) {
    var documents = new ArrayList<Map<String, Object>>();
    for (var document : new Yaml().loadAll(read(file))) {
      documents.add((Map<String, Object>) document);
    }
    return documents;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
