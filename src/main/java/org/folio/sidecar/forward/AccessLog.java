package org.folio.sidecar.forward;

import jakarta.inject.Singleton;
import org.folio.sidecar.config.SidecarConfig;

/**
 * One line per request on the {@code transaction} logger (upstream's category): method, path without the
 * query string, status, tenant, user, request id, total and module time, and the reason when the sidecar
 * answered itself. Headers are never logged, so no token can reach this line. {@link AccessLogWriter} writes it
 * off the event loop.
 */
@Singleton
public class AccessLog {

  private final boolean enabled;
  private final AccessLogWriter writer;

  AccessLog(SidecarConfig config, AccessLogWriter writer) {
    this.enabled = config.accessLogEnabled();
    this.writer = writer;
  }

  public void record(Exchange exchange, int status) {
    if (!enabled || !AccessLogWriter.TRANSACTION.isInfoEnabled()) {
      return;
    }
    long now = System.nanoTime();
    long totalMicros = (now - exchange.startNanos) / 1_000;
    long moduleMicros = exchange.moduleStartNanos == 0 ? -1
      : ((exchange.moduleAnsweredNanos == 0 ? now : exchange.moduleAnsweredNanos) - exchange.moduleStartNanos) / 1_000;
    // built by hand: String.format parses its pattern on every call, and this runs once per request
    var line = new StringBuilder(160).append(exchange.method).append(' ').append(exchange.path).append(' ')
      .append(status).append(" tenant=").append(dash(exchange.tenant)).append(" user=").append(dash(exchange.userId))
      .append(" rid=").append(dash(exchange.requestId)).append(" total_ms=");
    appendMillis(line, totalMicros).append(" module_ms=");
    if (moduleMicros < 0) {
      line.append('-');
    } else {
      appendMillis(line, moduleMicros);
    }
    if (exchange.rejection != null) {
      // why the sidecar answered itself: kept out of the error body, as upstream's bodies have no such member
      line.append(" reason=\"").append(exchange.rejection).append('"');
    }
    writer.write(line);
  }

  /** Appends microseconds as milliseconds with three decimals, as {@code %.3f} would. */
  static StringBuilder appendMillis(StringBuilder line, long micros) {
    long fraction = micros % 1000;
    line.append(micros / 1000).append('.');
    if (fraction < 100) {
      line.append(fraction < 10 ? "00" : "0");
    }
    return line.append(fraction);
  }

  private static String dash(String value) {
    return value == null ? "-" : value;
  }
}
