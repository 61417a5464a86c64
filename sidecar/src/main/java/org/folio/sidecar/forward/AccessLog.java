package org.folio.sidecar.forward;

import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.folio.sidecar.config.SidecarConfig;
import org.jspecify.annotations.Nullable;

/**
 * One line per request on the {@code transaction} logger (upstream's category), in upstream's format by default
 * (SC_ACCESS_LOG_FORMAT: remote address, time, request line, status, bytes, times in seconds, user agent,
 * tenant, user id, request id), or {@code compact}: method, path, status, tenant, user, request id, trace id
 * (when there is one), total and module time in milliseconds and the reason when the sidecar answered itself.
 * Headers other than those named are never logged, so no token can reach this line; values a caller controls are
 * escaped ({@link LogEscape}). {@link AccessLogWriter} writes it off the event loop, with the request and trace
 * ids for the log's MDC.
 */
@Singleton
public class AccessLog {

  public static final String COMPACT = "compact";
  // the compact line carries the prefix Quarkus' console gives other lines, so tools read both alike
  private static final DateTimeFormatter COMPACT_TIME = DateTimeFormatter
    .ofPattern("yyyy-MM-dd HH:mm:ss,SSS", Locale.ROOT).withZone(ZoneId.systemDefault());

  private final boolean enabled;
  private final AccessLogWriter writer;
  private final @Nullable AccessLineFormat format;
  private final Clock clock;
  private final RequestMetrics metrics;

  AccessLog(SidecarConfig config, AccessLogWriter writer, Clock clock, RequestMetrics metrics) {
    this.metrics = metrics;
    this.enabled = config.accessLogEnabled();
    this.writer = writer;
    this.clock = clock;
    var configured = config.accessLogFormat().filter(f -> !f.isBlank()).orElse(AccessLineFormat.UPSTREAM_DEFAULT);
    this.format = COMPACT.equalsIgnoreCase(configured.trim()) ? null : AccessLineFormat.parse(configured);
  }

  public void record(Exchange exchange, int status) {
    long now = System.nanoTime();
    metrics.record(exchange, status, now);
    if (!enabled || !AccessLogWriter.TRANSACTION.isInfoEnabled()) {
      return;
    }
    if (format != null) {
      writer.write(format.render(name -> field(name, exchange, status, now), Instant.now(clock)), exchange.requestId,
        exchange.traceId);
      return;
    }
    long totalMicros = (now - exchange.startNanos) / 1_000;
    long moduleMicros = exchange.moduleStartNanos == 0
      ? -1
      : ((exchange.moduleAnsweredNanos == 0 ? now : exchange.moduleAnsweredNanos) - exchange.moduleStartNanos) / 1_000;
    // built by hand: String.format parses its pattern on every call, and this runs once per request
    var line = new StringBuilder(200);
    COMPACT_TIME.formatTo(Instant.now(clock), line);
    line.append(" INFO  [transaction] (access) ").append(exchange.method).append(' ');
    LogEscape.append(line, exchange.path).append(' ').append(status).append(" tenant=");
    LogEscape.append(line, dash(exchange.tenant)).append(" user=");
    LogEscape.append(line, dash(exchange.userId)).append(" rid=");
    LogEscape.append(line, dash(exchange.requestId));
    if (exchange.traceId != null) {
      line.append(" trace=").append(exchange.traceId);
    }
    line.append(" total_ms=");
    appendMillis(line, totalMicros).append(" module_ms=");
    if (moduleMicros < 0) {
      line.append('-');
    } else {
      appendMillis(line, moduleMicros);
    }
    if (exchange.rejection != null) {
      LogEscape.append(line.append(" reason=\""), exchange.rejection).append('"');
    }
    writer.write(line, exchange.requestId, exchange.traceId);
  }

  /** Upstream's field names; times in seconds with three decimals, as upstream writes them. */
  private static @Nullable String field(String name, Exchange exchange, int status, long now) {
    HttpServerRequest request = exchange.request;
    return switch (name) {
      case "remote-ip" -> {
        var forwarded = request.getHeader("x-forwarded-for");
        yield forwarded != null
          ? forwarded
          : request.remoteAddress() == null ? "-" : request.remoteAddress().hostAddress();
      }
      case "remote-host" -> request.remoteAddress() == null ? "-" : request.remoteAddress().hostAddress();
      case "remote-user" -> "-";
      case "method" -> exchange.method;
      case "path" -> exchange.path;
      case "protocol" -> request.version() == null ? "-" : protocol(request);
      case "status" -> String.valueOf(status);
      case "bytes" -> String.valueOf(request.response().bytesWritten());
      case "rt" -> seconds(now - exchange.startNanos);
      case "uct" -> exchange.moduleStartNanos == 0 ? "" : seconds(exchange.moduleStartNanos - exchange.startNanos);
      case "uht" ->
        exchange.moduleAnsweredNanos == 0 ? "" : seconds(exchange.moduleAnsweredNanos - exchange.startNanos);
      case "urt" -> exchange.moduleStartNanos == 0 ? "" : seconds(now - exchange.startNanos);
      case "user-agent" -> dash(request.getHeader("user-agent"));
      case "x-okapi-tenant" -> dash(exchange.tenant);
      case "x-okapi-user-id" -> dash(exchange.userId);
      case "x-okapi-request-id" -> dash(exchange.requestId);
      case "trace-id" -> dash(exchange.traceId);
      case "reason" -> exchange.rejection == null ? "" : exchange.rejection;
      default -> null;
    };
  }

  private static String protocol(HttpServerRequest request) {
    return switch (request.version()) {
      case HTTP_1_0 -> "HTTP/1.0";
      case HTTP_1_1 -> "HTTP/1.1";
      case HTTP_2 -> "HTTP/2.0";
    };
  }

  private static String seconds(long nanos) {
    return appendMillis(new StringBuilder(8), nanos / 1_000_000).toString();
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

  private static String dash(@Nullable String value) {
    return value == null ? "-" : value;
  }
}
