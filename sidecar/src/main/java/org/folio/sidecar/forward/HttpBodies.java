package org.folio.sidecar.forward;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;

/** The one rule for whether a request carries a body: a non-zero content-length or a transfer-encoding. */
public final class HttpBodies {

  private HttpBodies() {
  }

  public static boolean hasBody(HttpServerRequest request) {
    var length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
    return (length != null && !"0".equals(length.trim()))
      || request.headers().contains(HttpHeaders.TRANSFER_ENCODING);
  }
}
