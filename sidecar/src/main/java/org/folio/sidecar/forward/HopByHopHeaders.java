package org.folio.sidecar.forward;

import io.vertx.core.MultiMap;
import java.util.List;

/**
 * Headers that describe one connection, not the message (RFC 9110 section 7.6.1), so a proxy must not pass
 * them on; plus any header the {@code Connection} header names, except those the sidecar checks or sets: a caller
 * must not make a header the sidecar decided on vanish on the way to the module ({@code Connection:
 * x-okapi-tenant} would leave the module without the tenant the token was checked against).
 */
public final class HopByHopHeaders {

  private static final List<String> NAMES = List.of(
    "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "proxy-connection", "te", "trailer",
    "transfer-encoding", "upgrade");

  // framing and identity: what a body is and who sends it are decided here, not by the caller's Connection list
  private static final List<String> PROTECTED = List.of(
    OkapiHeaders.SYSTEM_TOKEN, OkapiHeaders.AUTHORIZATION, "content-length", "content-type", "content-encoding");

  private HopByHopHeaders() {
  }

  public static void strip(MultiMap headers) {
    var connection = headers.get("connection");
    if (connection != null) {
      for (var named : connection.split(",", -1)) {
        var name = named.trim();
        if (!name.isEmpty() && !isEndToEnd(name)) {
          headers.remove(name);
        }
      }
    }
    for (var name : NAMES) {
      headers.remove(name);
    }
  }

  private static boolean isEndToEnd(String name) {
    return name.regionMatches(true, 0, OkapiHeaders.OKAPI_PREFIX, 0, OkapiHeaders.OKAPI_PREFIX.length())
      || PROTECTED.stream().anyMatch(name::equalsIgnoreCase);
  }
}
