package org.folio.sidecar.forward;

import io.vertx.core.http.HttpServerRequest;
import org.folio.sidecar.routing.RoutingEntry;

/**
 * What the ingress or egress pipeline learns about one request as it goes, read by the access log at the end.
 * Lives on one event-loop thread, so plain fields suffice.
 */
public final class Exchange {

  public final HttpServerRequest request;
  public final long startNanos;
  public final String method;
  public final String path;
  public String requestId;
  public String tenant;
  public String userId;
  public RoutingEntry entry;
  public long moduleStartNanos;
  public long moduleAnsweredNanos;

  public Exchange(HttpServerRequest request, long startNanos) {
    this.request = request;
    this.startNanos = startNanos;
    this.method = request.method().name();
    this.path = request.path();
  }
}
