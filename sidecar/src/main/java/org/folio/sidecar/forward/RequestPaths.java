package org.folio.sidecar.forward;

import io.vertx.core.http.HttpServerRequest;
import org.folio.sidecar.error.SidecarError;
import org.jspecify.annotations.Nullable;

/**
 * The one form of a request path that is routed, authorized and forwarded. A module's framework normalizes
 * the path it is given (Vert.x Web and Tomcat remove dot segments, decode percent-encoded characters, Tomcat
 * drops {@code ;} parameters), so a path that normalizes to another endpoint than the one it matched here
 * would be authorized as one endpoint and served as another. Such paths are refused: dot segments, plain or
 * percent-encoded; an encoded {@code /}, {@code \} or {@code ;}; a raw {@code \} or {@code ;}; empty segments;
 * control characters and malformed escapes. What is left is made canonical once: percent-encoded unreserved
 * characters (RFC 3986 section 2.3) are decoded, so {@code /lo%61ns} is routed, authorized and forwarded as
 * {@code /loans}.
 */
public final class RequestPaths {

  private RequestPaths() {
  }

  /** The request target as it is forwarded: the canonical path and the caller's query. */
  static String forwardedUri(HttpServerRequest request) {
    var raw = request.path();
    var path = raw == null ? null : canonical(raw);
    if (path == null) {
      // the dispatcher refuses such a path before anything is forwarded
      throw SidecarError.badRequest("Invalid request path");
    }
    var uri = request.uri();
    // only a target in origin form is passed on as sent: any other (absolute-form, which HTTP/1 refuses at the
    // decoder) is rebuilt from the path and query that were routed and authorized, with no authority of the caller's
    if (path.equals(raw) && uri.startsWith("/")) {
      return uri;
    }
    var query = request.query();
    return query == null ? path : path + '?' + query;
  }

  /** {@code raw}'s canonical form (the same string when there is nothing to change), or null when it is refused. */
  public static @Nullable String canonical(String raw) {
    if (isPlain(raw)) {
      return raw;
    }
    var path = new StringBuilder(raw.length());
    int segmentStart = 0;
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '/') {
        if (!acceptedSegment(path, segmentStart)) {
          return null;
        }
        path.append('/');
        segmentStart = path.length();
      } else if (c == '%') {
        int decoded = i + 2 < raw.length() ? hexPair(raw.charAt(i + 1), raw.charAt(i + 2)) : -1;
        if (decoded < 0 || decoded == '/' || decoded == '\\' || decoded == ';' || isControl(decoded)) {
          return null;
        }
        if (isUnreserved(decoded)) {
          path.append((char) decoded);
        } else {
          path.append(raw, i, i + 3);
        }
        i += 2;
      } else if (c == '\\' || c == ';' || isControl(c)) {
        return null;
      } else {
        path.append(c);
      }
    }
    // a trailing slash (an empty last segment) is a path of its own, as upstream's matcher treats it
    if (segmentStart < path.length() && isDotSegment(path, segmentStart)) {
      return null;
    }
    return path.toString();
  }

  // nothing to decode or refuse: no escape, no dot or empty segment, no ; or \ or control character
  private static boolean isPlain(String raw) {
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '%' || c == ';' || c == '\\' || isControl(c)) {
        return false;
      }
      if (c == '/' && i + 1 < raw.length() && (raw.charAt(i + 1) == '/' || raw.charAt(i + 1) == '.')) {
        return false;
      }
    }
    return true;
  }

  /** The segment that ended at the end of {@code path} (the first slash has no segment before it). */
  private static boolean acceptedSegment(StringBuilder path, int segmentStart) {
    if (path.isEmpty()) {
      return true;
    }
    return segmentStart < path.length() && !isDotSegment(path, segmentStart);
  }

  private static boolean isDotSegment(StringBuilder path, int segmentStart) {
    int length = path.length() - segmentStart;
    return (length == 1 && path.charAt(segmentStart) == '.')
      || (length == 2 && path.charAt(segmentStart) == '.' && path.charAt(segmentStart + 1) == '.');
  }

  private static boolean isUnreserved(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
      || c == '_' || c == '~';
  }

  private static boolean isControl(int c) {
    return c < 0x20 || c == 0x7f;
  }

  private static int hexPair(char high, char low) {
    int h = Character.digit(high, 16);
    int l = Character.digit(low, 16);
    return h < 0 || l < 0 ? -1 : h * 16 + l;
  }
}
