package org.folio.sidecar.forward;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * An access-line format in upstream's notation (SC_ACCESS_LOG_FORMAT): {@code %X{field}} for a request's field,
 * {@code %d{pattern}} for the time, {@code %n} for the line end (the handler adds it), anything else literal.
 * Parsed once at start-up into segments, so a line is rendered by appending them. Field values are escaped
 * ({@link LogEscape}): a user agent with a quote or a line break cannot end its field or the line early.
 */
public final class AccessLineFormat {

  /** Upstream's default (its application.properties), field for field. */
  public static final String UPSTREAM_DEFAULT = "%X{remote-ip} - %X{remote-host} - %X{remote-user} "
    + "[%d{dd/MM/yyyy:HH:mm:ss z}] \"%X{method} %X{path} %X{protocol}\" %X{status} %X{bytes} rt=%X{rt}  uct=\"%X{uct}\"  "
    + "uht=\"%X{uht}\"  urt=\"%X{urt}\"  \"%X{user-agent}\" \"%X{x-okapi-tenant}\" \"%X{x-okapi-user-id}\" "
    + "\"%X{x-okapi-request-id}\" %n";

  private interface Segment {
    void append(StringBuilder line, Function<String, String> fields, Instant now);
  }

  private static final int LINE_CAPACITY = 384;

  private final List<Segment> segments;

  private AccessLineFormat(List<Segment> segments) {
    this.segments = segments;
  }

  public static AccessLineFormat parse(String format) {
    var segments = new ArrayList<Segment>();
    var literal = new StringBuilder();
    int i = 0;
    while (i < format.length()) {
      char c = format.charAt(i);
      if (c == '%' && i + 1 < format.length()) {
        char kind = format.charAt(i + 1);
        int close = format.indexOf('}', i);
        boolean braced = i + 2 < format.length() && format.charAt(i + 2) == '{' && close > 0;
        if ((kind == 'X' || kind == 'd') && braced) {
          flush(literal, segments);
          var argument = format.substring(i + 3, close);
          segments.add(kind == 'X' ? field(argument) : date(argument));
          i = close + 1;
          continue;
        }
        if (kind == 'n') {
          i += 2;
          continue;
        }
      }
      literal.append(c);
      i++;
    }
    flush(literal, segments);
    return new AccessLineFormat(List.copyOf(segments));
  }

  private static void flush(StringBuilder literal, List<Segment> segments) {
    if (!literal.isEmpty()) {
      var text = literal.toString();
      segments.add((line, fields, now) -> line.append(text));
      literal.setLength(0);
    }
  }

  private static Segment field(String name) {
    return (line, fields, now) -> {
      LogEscape.append(line, fields.apply(name));
    };
  }

  private static Segment date(String pattern) {
    var formatter = DateTimeFormatter.ofPattern(pattern, Locale.ROOT).withZone(ZoneId.systemDefault());
    return (line, fields, now) -> formatter.formatTo(now, line);
  }

  /** The line for one request, whose fields {@code fields} looks up by name (null: empty). */
  public String render(Function<String, String> fields, Instant now) {
    // upstream's default line is about 250 characters: room for it without growing (a copy) on every request
    var line = new StringBuilder(LINE_CAPACITY);
    for (var segment : segments) {
      segment.append(line, fields, now);
    }
    return line.toString();
  }
}
