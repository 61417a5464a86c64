package org.folio.sidecar.forward;

import io.vertx.core.net.SocketAddress;
import java.net.InetAddress;
import java.net.UnknownHostException;

/** What the sidecar may conclude from a caller's address: whether it is the pod itself. */
public final class Peers {

  private Peers() {
  }

  /** True for a loopback peer: the module in the sidecar's own pod (they share the network namespace). */
  public static boolean isLoopback(SocketAddress peer) {
    if (peer == null || peer.hostAddress() == null) {
      return false;
    }
    try {
      // a literal address from the socket: no name lookup happens
      return InetAddress.getByName(peer.hostAddress()).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
