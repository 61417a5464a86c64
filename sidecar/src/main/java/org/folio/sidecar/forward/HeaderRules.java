package org.folio.sidecar.forward;

import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerRequest;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * What a header field must be to be passed on: the rules Netty's HTTP/1.1 decoder enforces on every request that
 * comes in over HTTP/1.1, applied here to requests that came in over HTTP/2 (whose decoder checks names but not
 * values) and to every head the forwarder writes. Vert.x's client checks values too, but inside the callback that
 * hands out a pooled connection, where a failure leaves the request unanswered and the connection held; so nothing
 * reaches the client that it could refuse. A problem names the field, never its value (it may be a token).
 */
public final class HeaderRules {

  // RFC 9113 section 8.2.2: these describe an HTTP/1.1 connection and make an HTTP/2 request malformed
  private static final List<String> CONNECTION_SPECIFIC = List.of("connection", "keep-alive", "proxy-connection",
    "transfer-encoding", "upgrade");
  private static final String TCHAR_SYMBOLS = "!#$%&'*+-.^_`|~";

  private HeaderRules() {
  }

  /** Why one of {@code headers} cannot be written to a target, or null when all can. */
  public static @Nullable String problem(MultiMap headers) {
    for (var field : headers) {
      var problem = problem(field.getKey(), field.getValue());
      if (problem != null) {
        return problem;
      }
    }
    return null;
  }

  /**
   * Why an HTTP/2 request is malformed (RFC 9113 section 8.2 and 8.3), or null: a field HTTP/1.1 would refuse, an
   * upper-case name, a connection-specific field, {@code te} other than {@code trailers}, a {@code host} naming
   * another authority than {@code :authority}, a target with a space or control byte.
   */
  public static @Nullable String http2Problem(HttpServerRequest request) {
    var headers = request.headers();
    for (var field : headers) {
      var name = field.getKey();
      var problem = problem(name, field.getValue());
      if (problem != null) {
        return problem;
      }
      if (!name.equals(name.toLowerCase(Locale.ROOT))) {
        return "upper-case header name " + name;
      }
    }
    for (var name : CONNECTION_SPECIFIC) {
      if (headers.contains(name)) {
        return "connection-specific header " + name + " in HTTP/2";
      }
    }
    for (var te : headers.getAll("te")) {
      if (!"trailers".equalsIgnoreCase(te)) {
        return "te other than trailers in HTTP/2";
      }
    }
    var hosts = headers.getAll("host");
    var authority = request.authority();
    boolean disagree = hosts.size() == 1 && authority != null
      && !sameAuthority(hosts.get(0), authority.host(), authority.port());
    if (hosts.size() > 1 || disagree) {
      return "host header disagrees with :authority";
    }
    if (!isTarget(request.uri())) {
      return "space or control byte in :path";
    }
    if (request.uri().charAt(0) != '/') {
      // as HTTP/1.1's decoder (StrictRequestDecoder): an absolute-form target's authority would override Host
      return "request target is not a path (absolute-form, authority-form or *)";
    }
    return null;
  }

  private static @Nullable String problem(String name, String value) {
    if (!isToken(name)) {
      return "invalid header name";
    }
    if (!isValue(value)) {
      return "invalid value of header " + name;
    }
    return null;
  }

  /** RFC 9110 section 5.6.2: one or more tchar. */
  private static boolean isToken(String name) {
    if (name.isEmpty()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean alphanumeric = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
      if (!alphanumeric && TCHAR_SYMBOLS.indexOf(c) < 0) {
        return false;
      }
    }
    return true;
  }

  /** RFC 9110 section 5.5: visible bytes, spaces and tabs inside, obs-text; no leading or trailing whitespace. */
  private static boolean isValue(String value) {
    int last = value.length() - 1;
    for (int i = 0; i <= last; i++) {
      char c = value.charAt(i);
      boolean whitespace = c == ' ' || c == '\t';
      if (whitespace ? i == 0 || i == last : c < 0x21 || c == 0x7f || c > 0xff) {
        return false;
      }
    }
    return true;
  }

  private static boolean isTarget(@Nullable String uri) {
    if (uri == null || uri.isEmpty()) {
      return false;
    }
    for (int i = 0; i < uri.length(); i++) {
      char c = uri.charAt(i);
      if (c <= 0x20 || c >= 0x7f) {
        return false;
      }
    }
    return true;
  }

  private static boolean sameAuthority(String host, String authorityHost, int authorityPort) {
    var expected = authorityPort >= 0 ? authorityHost + ':' + authorityPort : authorityHost;
    return expected.equalsIgnoreCase(host.trim());
  }
}
