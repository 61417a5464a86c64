package org.folio.sidecar.forward;

import org.jboss.logging.MDC;
import org.jspecify.annotations.Nullable;

/**
 * The request's ids in the log's MDC, so every line written for a request names it: {@code requestId} and
 * {@code traceId} (the key Quarkus' OpenTelemetry uses too). On the event loop Quarkus keeps the MDC in the
 * request's duplicated Vert.x context, so it needs no clean-up and never leaks into another request; lines written
 * by {@link AccessLogWriter}'s thread carry the same ids.
 */
public final class RequestLogContext {

  public static final String REQUEST_ID = "requestId";
  public static final String TRACE_ID = "traceId";

  private RequestLogContext() {
  }

  /** Puts the exchange's ids into the MDC of the current (event-loop) context. */
  public static void set(Exchange exchange) {
    put(REQUEST_ID, exchange.requestId);
    put(TRACE_ID, exchange.traceId);
  }

  /**
   * Puts an id into the MDC, escaped: the request id is the caller's text, and it enters the MDC before the header
   * rules may refuse it (an HTTP/2 value may hold CR LF), so the console line's {@code rid=} must never end a line.
   */
  public static void put(String key, @Nullable String id) {
    if (id != null) {
      MDC.put(key, LogEscape.escape(id));
    }
  }
}
