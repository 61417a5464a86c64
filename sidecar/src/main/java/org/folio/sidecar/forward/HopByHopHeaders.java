package org.folio.sidecar.forward;

import io.vertx.core.MultiMap;
import java.util.List;

/**
 * Headers that describe one connection, not the message (RFC 9110 section 7.6.1), so a proxy must not pass
 * them on; plus any header the {@code Connection} header names.
 */
public final class HopByHopHeaders {

  private static final List<String> NAMES = List.of(
    "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "proxy-connection", "te", "trailer",
    "transfer-encoding", "upgrade");

  private HopByHopHeaders() {
  }

  public static void strip(MultiMap headers) {
    var connection = headers.get("connection");
    if (connection != null) {
      for (var named : connection.split(",", -1)) {
        var name = named.trim();
        if (!name.isEmpty()) {
          headers.remove(name);
        }
      }
    }
    for (var name : NAMES) {
      headers.remove(name);
    }
  }
}
