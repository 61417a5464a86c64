package org.folio.sidecar.ingress;

import io.vertx.core.http.HttpServerRequest;
import org.folio.sidecar.routing.RoutingEntry;

/**
 * What the ingress pipeline learns about one request as it goes, read by the access log at the end. Lives on
 * one event-loop thread, so plain fields suffice.
 */
final class IngressExchange {

  final HttpServerRequest request;
  final long startNanos;
  final String method;
  final String path;
  String requestId;
  String tenant;
  String userId;
  RoutingEntry entry;
  long moduleStartNanos;
  long moduleAnsweredNanos;

  IngressExchange(HttpServerRequest request, long startNanos) {
    this.request = request;
    this.startNanos = startNanos;
    this.method = request.method().name();
    this.path = request.path();
  }
}
