package org.folio.sidecar.forward;

import org.jspecify.annotations.Nullable;

/**
 * Escapes a caller-controlled value for a log line: a quote, a backslash and control characters (CR, LF, ESC, ...)
 * become {@code \"}, {@code \\}, {@code \r}, {@code \n} or {@code \u001b}, so one request stays one line that a log
 * pipeline can split on its quotes, and a terminal shows no escape sequences. A value with nothing to escape (the
 * usual case) is appended as it is, without a copy.
 */
public final class LogEscape {

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private LogEscape() {
  }

  public static StringBuilder append(StringBuilder line, @Nullable CharSequence value) {
    if (value == null) {
      return line;
    }
    int length = value.length();
    int clean = 0;
    while (clean < length && !needsEscape(value.charAt(clean))) {
      clean++;
    }
    line.append(value, 0, clean);
    for (int i = clean; i < length; i++) {
      char c = value.charAt(i);
      if (!needsEscape(c)) {
        line.append(c);
        continue;
      }
      switch (c) {
        case '"' -> line.append("\\\"");
        case '\\' -> line.append("\\\\");
        case '\n' -> line.append("\\n");
        case '\r' -> line.append("\\r");
        case '\t' -> line.append("\\t");
        default -> line.append("\\u00").append(HEX[(c >> 4) & 0xf]).append(HEX[c & 0xf]);
      }
    }
    return line;
  }

  /** The value escaped; the value itself when nothing needs escaping. */
  public static @Nullable String escape(@Nullable String value) {
    if (value == null) {
      return null;
    }
    for (int i = 0; i < value.length(); i++) {
      if (needsEscape(value.charAt(i))) {
        return append(new StringBuilder(value.length() + 16), value).toString();
      }
    }
    return value;
  }

  private static boolean needsEscape(char c) {
    return c < 0x20 || c == '"' || c == '\\' || c == 0x7f;
  }
}
