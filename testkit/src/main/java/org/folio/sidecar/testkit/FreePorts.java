package org.folio.sidecar.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free loopback ports: other processes share this machine, so nothing in the tests uses a fixed port.
 *
 * <p>Ports come from below the kernel's ephemeral range (Linux: 32768-60999). A port the kernel chose for a listener
 * is one it may also choose as the source port of an outgoing connection: a harness that reserved ports, then
 * provisioned Keycloak over thousands of connections, found a sidecar's port taken by one of them (CI: "the sidecar
 * of mod-inventory-storage exited with 1"). Below the range only listeners compete, and a port is handed out once
 * per JVM.
 */
public final class FreePorts {

  private static final int LOWEST = 20_000;
  private static final int ABOVE_HIGHEST = 32_768;
  private static final int ATTEMPTS = 1_000;
  private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

  private FreePorts() {
  }

  public static int next() {
    var random = ThreadLocalRandom.current();
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      int port = random.nextInt(LOWEST, ABOVE_HIGHEST);
      if (!HANDED_OUT.contains(port) && bindable(port) && HANDED_OUT.add(port)) {
        return port;
      }
    }
    throw new IllegalStateException("no free loopback port in " + LOWEST + "-" + (ABOVE_HIGHEST - 1)
      + " after " + ATTEMPTS + " attempts");
  }

  private static boolean bindable(int port) {
    try (var socket = new ServerSocket()) {
      socket.setReuseAddress(false);
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
