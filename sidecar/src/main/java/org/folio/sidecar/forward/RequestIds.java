package org.folio.sidecar.forward;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Okapi's request id: {@code <6 random digits>/<first path segment>} for each hop, appended to the caller's id
 * with {@code ;} (e.g. {@code 482913/circulation;077120/users}). A leading {@code /_/} is skipped, so
 * {@code /_/tenant} yields {@code 123456/tenant}. Modules and log tooling split on these characters.
 */
public final class RequestIds {

  private RequestIds() {
  }

  public static String next(String given, String path) {
    var id = new StringBuilder((given == null ? 0 : given.length() + 1) + 7 + Math.min(path.length(), 64));
    if (given != null && !given.isEmpty()) {
      id.append(given).append(';');
    }
    int digits = ThreadLocalRandom.current().nextInt(1_000_000);
    for (int unit = 100_000; unit > 0; unit /= 10) {
      id.append((char) ('0' + digits / unit % 10));
    }
    return appendSegment(id, path).toString();
  }

  /** The first segment with its slash; the path itself when it has no non-empty first segment (as upstream). */
  private static StringBuilder appendSegment(StringBuilder id, String path) {
    int start = path.startsWith("/_/") && path.length() > 3 && path.charAt(3) != '/' ? 2 : 0;
    if (path.length() <= start + 1 || path.charAt(start) != '/' || path.charAt(start + 1) == '/') {
      return id.append(path);
    }
    int end = path.indexOf('/', start + 1);
    return id.append(path, start, end < 0 ? path.length() : end);
  }
}
