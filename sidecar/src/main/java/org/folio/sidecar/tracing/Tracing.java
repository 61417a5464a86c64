package org.folio.sidecar.tracing;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;
import java.util.Collection;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jspecify.annotations.Nullable;

/**
 * What the sidecar adds to Quarkus' OpenTelemetry tracing, which is off unless OTEL_SDK_DISABLED=false. When on,
 * Quarkus' Vert.x tracer gives every request a server span (continuing a caller's {@code traceparent}) and every
 * outgoing call a client span that is its child and whose {@code traceparent} the callee receives; the sidecar
 * names them ({@link #OPERATION_FORWARD}, ...) and gives the server span the endpoint's path pattern as its route.
 * When off, no tracer is installed, so nothing here runs on the hot path but a header read for the log's trace id.
 */
@Singleton
public class Tracing {

  /** The client span of a request streamed to the module, another module or the gateway. */
  public static final String OPERATION_FORWARD = "forward";
  /** The client span of a UMA permission decision at Keycloak (a decision-cache miss or a re-check). */
  public static final String OPERATION_DECISION = "keycloak permission decision";
  /** The client span of a token the sidecar obtains itself (service, system-user, admin or exchanged token). */
  public static final String OPERATION_TOKEN = "keycloak token grant";
  /** The client span of fetching a realm's signing keys (a realm not yet known, or a key rotation). */
  public static final String OPERATION_KEYS = "keycloak realm keys";

  // Quarkus' tracer reads the route of a server span from this key of the request's context (as Vert.x Web's)
  private static final String ROUTE_KEY = "VertxRoute";
  private static final String TRACEPARENT = "traceparent";
  private static final int TRACE_ID_START = 3;
  private static final int TRACE_ID_END = 35;
  private static final String INVALID_TRACE_ID = "00000000000000000000000000000000";

  private final boolean enabled;
  // the headers the tracer's propagators write into each outgoing call (traceparent, tracestate, baggage, ...)
  private final Collection<String> propagated;

  Tracing(@ConfigProperty(name = "quarkus.otel.sdk.disabled", defaultValue = "true") boolean sdkDisabled,
    Instance<OpenTelemetry> openTelemetry) {
    this.enabled = !sdkDisabled;
    this.propagated = enabled
      ? openTelemetry.get().getPropagators().getTextMapPropagator().fields()
      : List.of();
  }

  public boolean enabled() {
    return enabled;
  }

  /**
   * The request's trace id for the log: the sidecar's server span's when tracing, else the caller's
   * {@code traceparent}'s (so the lines still join the caller's trace); null when there is none.
   */
  public @Nullable String traceId(HttpServerRequest request) {
    if (enabled) {
      var span = Span.current().getSpanContext();
      if (span.isValid()) {
        return span.getTraceId();
      }
    }
    return traceIdOf(request.getHeader(TRACEPARENT));
  }

  /**
   * Drops the caller's trace context from headers to be forwarded when tracing: the client span writes its own
   * {@code traceparent} (the caller's trace, the sidecar's span as parent) and {@code baggage} (what the server span
   * took from the caller's first), and a second of each would leave the callee to pick, or let each hop add the
   * caller's copy to its own (issue 43 row 9: the module received two {@code baggage} headers). When not tracing,
   * the caller's pass through untouched, as upstream's.
   */
  public void dropCallersContext(MultiMap headers) {
    if (enabled) {
      propagated.forEach(headers::remove);
    }
  }

  /** Names the request's server span after the endpoint's path pattern ({@code GET /items/{id}}). */
  public void route(String pathPattern) {
    if (!enabled) {
      return;
    }
    var context = Vertx.currentContext();
    if (context != null && VertxContext.isDuplicatedContext(context)) {
      context.putLocal(ROUTE_KEY, pathPattern);
    }
  }

  /** The trace id of a W3C {@code traceparent} ({@code 00-<32 hex>-<16 hex>-<2 hex>}), or null if it is not one. */
  static @Nullable String traceIdOf(@Nullable String traceparent) {
    if (traceparent == null || traceparent.length() < 55 || traceparent.charAt(2) != '-'
      || traceparent.charAt(TRACE_ID_END) != '-') {
      return null;
    }
    for (int i = TRACE_ID_START; i < TRACE_ID_END; i++) {
      char c = traceparent.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        return null;
      }
    }
    var id = traceparent.substring(TRACE_ID_START, TRACE_ID_END);
    return INVALID_TRACE_ID.equals(id) ? null : id;
  }
}
