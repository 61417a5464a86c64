package org.folio.sidecar.forward;

import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import org.folio.sidecar.routing.RoutingEntry;
import org.jspecify.annotations.Nullable;

/**
 * What the ingress or egress pipeline learns about one request as it goes, read by the access log at the end.
 * Lives on one event-loop thread, so plain fields suffice.
 */
public final class Exchange {

  private static final String PRIORITY = "priority";

  public final HttpServerRequest request;
  public final long startNanos;
  public final String method;
  /** The canonical path ({@link RequestPaths}) that is routed, authorized and forwarded; the raw one if refused. */
  public final String path;
  /** Whether the caller sends a body ({@link HttpBodies}), as the request came in. */
  public final boolean hasBody;
  /** The raw path normalizes to another endpoint than it reads as: refused before routing. */
  public final boolean pathRefused;
  /** Which way the request went, for metrics; set by the router once it has found the route. */
  public Direction direction = Direction.UNROUTED;
  public String requestId;
  /** The W3C trace id of the request: the sidecar's span's, or the caller's {@code traceparent} when not tracing. */
  public @Nullable String traceId;
  public String tenant;
  public @Nullable String userId;
  public RoutingEntry entry;
  public long moduleStartNanos;
  public long moduleAnsweredNanos;
  /** The step the request is in ({@link Stage}), named in the error log line. */
  public String stage = Stage.REQUEST_VALIDATION;
  /** Why the sidecar answered the request itself, for the access line; null when the target answered. */
  public @Nullable String rejection;

  /**
   * The caller's headers as they may be passed on: hop-by-hop headers, Host and any caller-sent self signature
   * dropped, the request id set. Each direction adds its own (tokens, identity) on top.
   */
  public MultiMap forwardHeaders() {
    var headers = MultiMap.caseInsensitiveMultiMap().setAll(request.headers());
    HopByHopHeaders.strip(headers);
    headers.remove(HttpHeaders.HOST);
    headers.remove(OkapiHeaders.SIGNATURE);
    headers.remove(HttpHeaders.USER_AGENT);
    headers.remove(PRIORITY);
    headers.set(OkapiHeaders.REQUEST_ID, requestId);
    if (tenant != null) {
      // the tenant every check used, whatever the caller's Connection header listed
      headers.set(OkapiHeaders.TENANT, tenant);
    }
    return headers;
  }

  /** Ingress to the own module, egress to another module or the gateway, or answered before either. */
  public enum Direction {
    INGRESS, EGRESS, UNROUTED;

    private final String label = name().toLowerCase(java.util.Locale.ROOT);

    public String label() {
      return label;
    }
  }

  // requestId, tenant and entry are set by the dispatcher before any handler reads them
  @SuppressWarnings("NullAway.Init")
  public Exchange(HttpServerRequest request, long startNanos) {
    this.request = request;
    this.startNanos = startNanos;
    this.method = request.method().name();
    this.hasBody = HttpBodies.hasBody(request);
    var raw = request.path();
    var canonical = raw == null ? null : RequestPaths.canonical(raw);
    this.pathRefused = canonical == null;
    this.path = canonical == null ? raw : canonical;
  }
}
