package org.folio.sidecar.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The feature packages form no import loop: a newcomer can read them bottom-up, and a change in one cannot come
 * back to it through another. A new loop fails here with the packages that form it.
 */
class PackageCyclesTest {

  private static final Path MAIN = Path.of("src/main/java");
  private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+);");
  private static final Pattern IMPORT = Pattern.compile(
    "(?m)^import (?:static )?(org\\.folio\\.sidecar(?:\\.[a-z][a-z0-9_]*)*)\\.[A-Z]");

  @Test
  void noPackageReachesItselfThroughItsImports() throws IOException {
    var graph = imports();
    assertThat(graph).as("the main code's packages").hasSizeGreaterThan(5);

    assertThat(cycles(graph)).as("import loops between packages").isEmpty();
  }

  /** Package to the packages its files import, from the sources. */
  private static Map<String, Set<String>> imports() throws IOException {
    var graph = new TreeMap<String, Set<String>>();
    try (Stream<Path> files = Files.walk(MAIN)) {
      for (var file : files.filter(path -> path.toString().endsWith(".java")).toList()) {
        var source = Files.readString(file);
        var from = PACKAGE.matcher(source).results().findFirst().orElseThrow().group(1);
        var targets = graph.computeIfAbsent(from, name -> new TreeSet<>());
        IMPORT.matcher(source).results().map(match -> match.group(1)).filter(to -> !to.equals(from))
          .forEach(targets::add);
      }
    }
    return graph;
  }

  /** Every strongly connected group of more than one package (Tarjan's algorithm). */
  private static List<Set<String>> cycles(Map<String, Set<String>> graph) {
    var found = new ArrayList<Set<String>>();
    var index = new HashMap<String, Integer>();
    var low = new HashMap<String, Integer>();
    var stack = new ArrayList<String>();
    var onStack = new HashSet<String>();
    for (var node : graph.keySet()) {
      if (!index.containsKey(node)) {
        connect(node, graph, index, low, stack, onStack, found);
      }
    }
    return found;
  }

  private static void connect(String node, Map<String, Set<String>> graph, Map<String, Integer> index,
    Map<String, Integer> low, List<String> stack, Set<String> onStack, List<Set<String>> found) {
    index.put(node, index.size());
    low.put(node, index.get(node));
    stack.add(node);
    onStack.add(node);
    for (var next : graph.getOrDefault(node, Set.of())) {
      if (!index.containsKey(next)) {
        connect(next, graph, index, low, stack, onStack, found);
        low.put(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.contains(next)) {
        low.put(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node).equals(index.get(node))) {
      var group = new TreeSet<String>();
      String member;
      do {
        member = stack.remove(stack.size() - 1);
        onStack.remove(member);
        group.add(member);
      } while (!member.equals(node));
      if (group.size() > 1) {
        found.add(group);
      }
    }
  }
}
