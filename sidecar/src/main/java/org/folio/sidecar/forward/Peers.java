package org.folio.sidecar.forward;

import io.vertx.core.net.SocketAddress;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.folio.sidecar.config.EgressConfig;

/**
 * What the sidecar may conclude from a caller's address: whether it is the pod itself, i.e. the module calling
 * its sidecar on {@code localhost}. Only the configured addresses count (SIDECAR_POD_PEER_ADDRESSES), not every
 * loopback address: a mesh's inbound proxy connects from another loopback address on behalf of remote callers.
 */
@Singleton
public class Peers {

  private static final Pattern IP_LITERAL = Pattern.compile("[0-9A-Fa-f:.]+");

  private final Set<InetAddress> pod;

  @Inject
  Peers(EgressConfig config) {
    this(config.podPeerAddresses());
  }

  private Peers(List<String> addresses) {
    this.pod = addresses.stream().map(String::trim).filter(a -> !a.isEmpty()).map(Peers::literal)
      .collect(Collectors.toUnmodifiableSet());
  }

  /** For tests: the pod is exactly these literal addresses. */
  public static Peers of(String... addresses) {
    return new Peers(List.of(addresses));
  }

  /** True when {@code peer} is one of the pod's own addresses. */
  public boolean isPod(SocketAddress peer) {
    if (peer == null || peer.hostAddress() == null) {
      return false;
    }
    try {
      // a literal address from the socket: no name lookup happens
      return pod.contains(InetAddress.getByName(peer.hostAddress()));
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static InetAddress literal(String address) {
    if (!IP_LITERAL.matcher(address).matches()) {
      throw new IllegalArgumentException("SIDECAR_POD_PEER_ADDRESSES must list IP addresses, not: " + address);
    }
    try {
      return InetAddress.getByName(address);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("SIDECAR_POD_PEER_ADDRESSES must list IP addresses, not: " + address, e);
    }
  }
}
