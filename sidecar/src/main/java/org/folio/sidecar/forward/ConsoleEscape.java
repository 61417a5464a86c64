package org.folio.sidecar.forward;

import io.quarkus.logging.LoggingFilter;
import java.util.logging.Filter;
import java.util.logging.LogRecord;
import org.jboss.logmanager.ExtLogRecord;

/**
 * The plain console line's last guard (quarkus.log.console.filter): a control character in the message or in
 * the request's ids is written escaped, so no field of {@code quarkus.log.console.format} can end a line and
 * forge the next, whoever logged it (the sidecar escapes what callers send itself; a library may not). Stack
 * traces ({@code %e}) stay multi-line, as they are meant to.
 */
@LoggingFilter(name = "console-escape")
public final class ConsoleEscape implements Filter {

  @Override
  public boolean isLoggable(LogRecord record) {
    if (record instanceof ExtLogRecord ext) {
      escapeMdc(ext, RequestLogContext.REQUEST_ID);
      escapeMdc(ext, RequestLogContext.TRACE_ID);
      var message = ext.getFormattedMessage();
      if (message != null && hasControl(message)) {
        ext.setMessage(escaped(message), ExtLogRecord.FormatStyle.NO_FORMAT);
        ext.setParameters(null);
      }
    }
    return true;
  }

  private static void escapeMdc(ExtLogRecord record, String key) {
    var value = record.getMdc(key);
    if (value != null && hasControl(value)) {
      record.putMdc(key, escaped(value));
    }
  }

  private static boolean hasControl(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (isControl(text.charAt(i))) {
        return true;
      }
    }
    return false;
  }

  private static boolean isControl(char c) {
    return (c < 0x20 && c != '\t') || c == 0x7f || c == 0x85 || c == 0x2028 || c == 0x2029;
  }

  /** Control characters only: quotes and backslashes in ordinary messages stay as they are. */
  static String escaped(String text) {
    var out = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!isControl(c)) {
        out.append(c);
      } else if (c == '\n') {
        out.append("\\n");
      } else if (c == '\r') {
        out.append("\\r");
      } else {
        out.append(String.format("\\u%04x", (int) c));
      }
    }
    return out.toString();
  }
}
