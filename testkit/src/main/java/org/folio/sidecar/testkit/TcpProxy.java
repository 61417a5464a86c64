package org.folio.sidecar.testkit;

import io.vertx.core.Vertx;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A loopback TCP relay in front of the test broker, which advertises the relay's port: cutting it makes the
 * broker unreachable for every client (connections dropped, new ones refused) and restoring it brings the same
 * broker back, which the test kit cannot do by restarting the broker itself.
 */
public final class TcpProxy {

  private final Vertx vertx = Vertx.vertx();
  private final int port;
  private final Set<NetSocket> sockets = ConcurrentHashMap.newKeySet();
  private volatile int targetPort;
  private NetServer server;

  public TcpProxy(int port) {
    this.port = port;
  }

  public int port() {
    return port;
  }

  public void target(int targetPort) {
    this.targetPort = targetPort;
  }

  public synchronized void start() {
    if (server != null) {
      return;
    }
    var client = vertx.createNetClient();
    server = vertx.createNetServer().connectHandler(in -> {
      in.pause();
      sockets.add(in);
      client.connect(targetPort, "127.0.0.1").onSuccess(out -> {
        sockets.add(out);
        in.closeHandler(v -> out.close());
        out.closeHandler(v -> in.close());
        in.pipeTo(out);
        out.pipeTo(in);
      }).onFailure(error -> in.close());
    });
    await(server.listen(port, "127.0.0.1").mapEmpty());
  }

  public synchronized void cut() {
    if (server != null) {
      await(server.close());
      server = null;
    }
    sockets.forEach(NetSocket::close);
    sockets.clear();
  }

  private static void await(io.vertx.core.Future<?> future) {
    try {
      future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("proxy operation failed", e);
    }
  }
}
