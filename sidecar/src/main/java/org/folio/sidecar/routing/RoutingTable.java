package org.folio.sidecar.routing;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The endpoints of a module, indexed by their first path segment. Lookup picks the most specific pattern that
 * matches the path and allows the method; patterns are compiled and sorted once, when the table is built.
 */
public final class RoutingTable {

  private static final Comparator<RoutingEntry> MOST_SPECIFIC_FIRST = (a, b) -> b.pattern()
    .compareSpecificity(a.pattern());

  private final Map<String, List<RoutingEntry>> bySegment;
  private final List<RoutingEntry> leadingWildcards;
  private final List<RoutingEntry> entries;

  public RoutingTable(List<RoutingEntry> entries) {
    this.entries = List.copyOf(entries);
    var segments = new HashMap<String, List<RoutingEntry>>();
    var wildcards = new ArrayList<RoutingEntry>();
    for (var entry : entries) {
      var segment = entry.pattern().firstSegment();
      if (segment == null) {
        wildcards.add(entry);
      } else {
        segments.computeIfAbsent(segment, s -> new ArrayList<>()).add(entry);
      }
    }
    segments.replaceAll((segment, list) -> sorted(list));
    this.bySegment = Map.copyOf(segments);
    this.leadingWildcards = sorted(wildcards);
  }

  private static List<RoutingEntry> sorted(List<RoutingEntry> list) {
    var copy = new ArrayList<>(list);
    copy.sort(MOST_SPECIFIC_FIRST);
    return List.copyOf(copy);
  }

  /** The matching entry, or null when no endpoint answers this method and path; {@code multiple} entries ignored. */
  public @Nullable RoutingEntry lookup(String method, String path) {
    return lookup(method, path, null, false);
  }

  /**
   * The matching entry as upstream chooses it when {@code x-okapi-module-id} is {@code moduleId} (may be null).
   * Entries of {@code multiple} interfaces (several modules provide them) match only the module the header
   * names. On egress a named module is all that may match; on ingress other entries still do.
   */
  public @Nullable RoutingEntry lookup(String method, String path, @Nullable String moduleId, boolean egress) {
    var inSegment = firstMatch(bySegment.get(firstSegment(path)), method, path, moduleId, egress);
    var wildcard = firstMatch(leadingWildcards, method, path, moduleId, egress);
    if (inSegment == null || wildcard == null) {
      return inSegment != null ? inSegment : wildcard;
    }
    return MOST_SPECIFIC_FIRST.compare(inSegment, wildcard) <= 0 ? inSegment : wildcard;
  }

  private static @Nullable RoutingEntry firstMatch(@Nullable List<RoutingEntry> candidates, String method, String path,
    @Nullable String moduleId,
    boolean egress) {
    if (candidates == null) {
      return null;
    }
    for (var entry : candidates) {
      if (entry.allowsMethod(method) && selectable(entry, moduleId, egress) && entry.pattern().matches(path)) {
        return entry;
      }
    }
    return null;
  }

  private static boolean selectable(RoutingEntry entry, @Nullable String moduleId, boolean egress) {
    if (moduleId == null) {
      return !entry.isMultiple();
    }
    if (entry.isMultiple()) {
      return moduleId.equals(entry.moduleId());
    }
    return !egress;
  }

  private static String firstSegment(String path) {
    int slash = path.indexOf('/', 1);
    return slash < 0 ? path : path.substring(0, slash);
  }

  public List<RoutingEntry> entries() {
    return entries;
  }
}
