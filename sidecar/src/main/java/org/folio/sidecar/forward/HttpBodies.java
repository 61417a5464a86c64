package org.folio.sidecar.forward;

import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2Stream;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.impl.ConnectionBase;

/**
 * The one rule for whether a request carries a body: a non-zero content-length or a transfer-encoding; over
 * HTTP/2, where a body needs no content-length, also a stream its HEADERS frame left open.
 */
public final class HttpBodies {

  private HttpBodies() {
  }

  /**
   * Read it as the request comes in ({@link Exchange} does): an HTTP/2 stream left open by its HEADERS frame is
   * closed by its last DATA frame later, and then looks like one that never had a body.
   */
  public static boolean hasBody(HttpServerRequest request) {
    var length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
    return (length != null && !"0".equals(length.trim()))
      || request.headers().contains(HttpHeaders.TRANSFER_ENCODING)
      || (length == null && request.version() == HttpVersion.HTTP_2 && streamOpen(request));
  }

  /** Whether the caller may still send on the request's HTTP/2 stream; Netty knows, Vert.x does not say. */
  private static boolean streamOpen(HttpServerRequest request) {
    if (!(request.connection() instanceof ConnectionBase connection)) {
      return true;
    }
    var codec = connection.channelHandlerContext().pipeline().get(Http2ConnectionHandler.class);
    var stream = codec == null ? null : codec.connection().stream(request.streamId());
    return stream == null || stream.state() == Http2Stream.State.OPEN
      || stream.state() == Http2Stream.State.HALF_CLOSED_LOCAL;
  }
}
