package org.folio.sidecar.forward;

import io.vertx.core.MultiMap;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Ways a caller can ask a module's framework to run another method than the one on the request line: the
 * {@code X-HTTP-Method-Override}, {@code X-HTTP-Method} and {@code X-Method-Override} headers (honoured by
 * Jersey's filter, Spring's and ASP.NET's) and a {@code _method} query parameter (Spring's
 * {@code HiddenHttpMethodFilter} reads it from the query as from a form; Rails and Laravel too). The sidecar
 * authorizes the request line's method, so a request carrying one of them is refused rather than forwarded: a
 * module that honours it would run a method nobody authorized.
 */
public final class MethodOverrides {

  private static final List<String> HEADERS = List.of("x-http-method-override", "x-http-method", "x-method-override");
  private static final String PARAMETER = "_method";

  private MethodOverrides() {
  }

  /** The override the request carries (a header name or {@code _method}), or null when it carries none. */
  public static @Nullable String found(MultiMap headers, @Nullable String query) {
    for (var name : HEADERS) {
      if (headers.contains(name)) {
        return name;
      }
    }
    return query != null && hasParameter(query) ? PARAMETER : null;
  }

  // by name, in any case and percent-encoding of it (frameworks decode names before they compare them)
  private static boolean hasParameter(String query) {
    int start = 0;
    while (start <= query.length()) {
      int end = query.indexOf('&', start);
      if (end < 0) {
        end = query.length();
      }
      int equals = query.indexOf('=', start);
      int nameEnd = equals >= 0 && equals < end ? equals : end;
      // only a name that could spell _method (each character plain or percent-encoded) is decoded
      int length = nameEnd - start;
      if (length >= PARAMETER.length() && length <= 3 * PARAMETER.length()
        && PARAMETER.equals(decoded(query.substring(start, nameEnd)))) {
        return true;
      }
      start = end + 1;
    }
    return false;
  }

  private static String decoded(String name) {
    if (name.indexOf('%') < 0 && name.indexOf('+') < 0) {
      return name.toLowerCase(Locale.ROOT);
    }
    var text = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      int high = i + 2 < name.length() ? Character.digit(name.charAt(i + 1), 16) : -1;
      int low = i + 2 < name.length() ? Character.digit(name.charAt(i + 2), 16) : -1;
      if (c == '%' && high >= 0 && low >= 0) {
        text.append((char) (high * 16 + low));
        i += 2;
      } else {
        text.append(c == '+' ? ' ' : c);
      }
    }
    return text.toString().toLowerCase(Locale.ROOT);
  }
}
