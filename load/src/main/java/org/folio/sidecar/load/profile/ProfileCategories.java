package org.folio.sidecar.load.profile;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a profile's samples go, by the concern the issue asks about: each collapsed stack (async-profiler's
 * {@code frame;frame;...;leaf count}) is given to the concern of its leaf-most frame that names one, so a JDK
 * frame under the token verifier counts as token verification and a socket write under the forwarder as Netty
 * I/O. Stacks with no such frame are the JVM's own (GC, JIT) or other library code.
 */
final class ProfileCategories {

  /** Ordered: the first concern whose marker a frame contains wins for that frame. */
  private static final Map<String, List<String>> CONCERNS = concerns();

  private ProfileCategories() {
  }

  private static Map<String, List<String>> concerns() {
    var concerns = new LinkedHashMap<String, List<String>>();
    concerns.put("token verification (JWT parse, signature, claims)", List.of("org/folio/sidecar/token/",
      "io/smallrye/jwt", "org/jose4j", "sun/security", "java/security", "javax/crypto", "com/sun/crypto"));
    concerns.put("decision cache lookup", List.of("org/folio/sidecar/authz/", "com/github/benmanes/caffeine"));
    concerns.put("access line", List.of("forward/AccessLog", "forward/AccessLineFormat"));
    concerns.put("logging", List.of("org/jboss/logmanager", "org/jboss/logging", "org/slf4j"));
    concerns.put("request metrics", List.of("forward/RequestMetrics", "egress/EgressMetrics", "io/micrometer"));
    concerns.put("request ids", List.of("forward/RequestIds"));
    concerns.put("path canonicalisation", List.of("forward/RequestPaths"));
    concerns.put("header copies (hop-by-hop, Okapi headers)", List.of("forward/HopByHopHeaders",
      "forward/OkapiHeaders", "io/vertx/core/http/impl/headers"));
    concerns.put("strict framing (edge)", List.of("org/folio/sidecar/edge/"));
    concerns.put("routing table", List.of("org/folio/sidecar/routing/"));
    concerns.put("Vert.x HTTP client and its pool", List.of("io/vertx/core/http/impl/HttpClient",
      "io/vertx/core/http/impl/Http1xClient", "io/vertx/core/http/impl/ClientHttp", "io/vertx/core/net/impl/pool",
      "io/vertx/core/http/impl/SharedClientHttpStreamEndpoint", "io/vertx/core/http/impl/HttpClientRequest",
      "io/vertx/core/http/impl/HttpClientResponse", "io/vertx/core/http/impl/HttpClientImpl"));
    concerns.put("other sidecar code (ingress, forwarder, exchange)", List.of("org/folio/sidecar/"));
    concerns.put("Vert.x server, router, futures", List.of("io/vertx/", "io/quarkus/vertx"));
    concerns.put("Netty I/O and HTTP codec", List.of("io/netty/"));
    concerns.put("kernel: socket I/O, epoll, loopback TCP", List.of("[k]", "_[k]"));
    return concerns;
  }

  /**
   * A Markdown table of the share of each concern, largest first, and that share of {@code perRequest} (the
   * unprofiled run's CPU or bytes per request, in {@code perRequestUnit}).
   */
  static String table(List<String> collapsed, String unit, double perRequest, String perRequestUnit) {
    var totals = new LinkedHashMap<String, Long>();
    long all = 0;
    for (var line : collapsed) {
      int space = line.lastIndexOf(' ');
      if (space < 0) {
        continue;
      }
      long count = Long.parseLong(line.substring(space + 1).trim());
      all += count;
      totals.merge(concern(line.substring(0, space).split(";")), count, Long::sum);
    }
    var table = new StringBuilder("| concern | share | ").append(unit).append(" | ").append(perRequestUnit)
      .append(" per request |\n| --- | ---: | ---: | ---: |\n");
    long total = all;
    totals.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
      .forEach(entry -> {
        double share = total == 0 ? 0 : (double) entry.getValue() / total;
        table.append(String.format("| %s | %.1f %% | %d | %.1f |%n", entry.getKey(), 100 * share, entry.getValue(),
          share * perRequest));
      });
    return table.toString();
  }

  static String concern(String[] frames) {
    var stack = String.join(";", frames);
    if (stack.contains("CompileBroker::")) {
      return "JIT compiler";
    }
    if (stack.contains("GC") || stack.contains("G1") || stack.contains("WorkerThread::run")) {
      if (!stack.contains("/")) {
        return "GC";
      }
    }
    for (int i = frames.length - 1; i >= 0; i--) {
      for (var concern : CONCERNS.entrySet()) {
        for (var marker : concern.getValue()) {
          if (frames[i].contains(marker)) {
            return concern.getKey().startsWith("kernel") && stack.contains("org/jboss/logmanager")
              ? "kernel: console writes of the log"
              : concern.getKey();
          }
        }
      }
    }
    boolean java = false;
    for (var frame : frames) {
      java |= frame.contains("/");
    }
    return java ? "other Java (JDK, libraries)" : "JVM runtime (other)";
  }
}
