package org.folio.sidecar.forward;

import org.jboss.logging.MDC;

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
    if (exchange.requestId != null) {
      MDC.put(REQUEST_ID, exchange.requestId);
    }
    if (exchange.traceId != null) {
      MDC.put(TRACE_ID, exchange.traceId);
    }
  }
}
