package org.folio.sidecar.egress;

import io.vertx.core.net.SocketAddress;
import org.folio.sidecar.forward.Peers;

/**
 * Decides whether a caller may use the sidecar's egress (and with it the tenant's service token). Upstream
 * lets anyone who can reach the sidecar do so; here, by default, only the pod itself can: the module shares
 * the pod's network namespace and calls its sidecar on localhost.
 */
final class EgressGuard {

  private EgressGuard() {
  }

  static boolean allows(SocketAddress peer, boolean loopbackOnly, Peers peers) {
    return !loopbackOnly || peers.isPod(peer);
  }
}
