package org.folio.sidecar.edge;

import io.netty.channel.Channel;
import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * A graceful stop, within the shutdown delay (SIDECAR_SHUTDOWN_DELAY) Quarkus waits after SIGTERM before it stops
 * its servers. From the start of the delay readiness is DOWN, so the pod leaves its Service, and every HTTP/1
 * answer closes its connection ({@code Connection: close}), so keep-alive callers open their next connection
 * elsewhere, while requests are still served. Half-way through the delay the sidecar stops accepting connections (a
 * caller that still comes is refused before it sent anything, which it may safely retry) and closes each open
 * connection once it is between requests and has been for the other half; a request already on a connection is
 * answered first. Quarkus then waits up to SIDECAR_SHUTDOWN_TIMEOUT for requests still in flight and closes its
 * servers, which would cut any connection still open.
 */
@Singleton
public class Drain {

  private static final Logger LOG = Logger.getLogger(Drain.class);

  private final Vertx vertx;
  private final long graceMillis;
  private final Set<Channel> listening = ConcurrentHashMap.newKeySet();
  private final Set<OpenConnection> connections = ConcurrentHashMap.newKeySet();
  private volatile boolean draining;

  Drain(Vertx vertx, @ConfigProperty(name = "quarkus.shutdown.delay") Optional<Duration> delay) {
    this.vertx = vertx;
    this.graceMillis = delay.orElse(Duration.ZERO).toMillis() / 2;
  }

  void started(@Observes ShutdownDelayInitiatedEvent event) {
    draining = true;
    if (graceMillis > 0) {
      vertx.setTimer(graceMillis, timer -> stopAccepting());
    } else {
      stopAccepting();
    }
  }

  /** Whether the sidecar is stopping: readiness reports DOWN. */
  public boolean draining() {
    return draining;
  }

  // registered before every other route: health answers and module traffic alike close their connection
  void register(@Observes Router router) {
    router.route().order(Integer.MIN_VALUE).handler(context -> {
      var request = context.request();
      if (draining && request.version() != HttpVersion.HTTP_2) {
        var response = context.response();
        response.putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
        response.endHandler(done -> request.connection().close());
      }
      context.next();
    });
  }

  /** A server's listening channel, closed when the sidecar stops accepting. */
  void listening(Channel channel) {
    listening.add(channel);
  }

  /** An accepted connection, followed until it closes. */
  void opened(OpenConnection connection) {
    connections.add(connection);
    connection.channel().closeFuture().addListener(closed -> connections.remove(connection));
  }

  private void stopAccepting() {
    for (var channel : listening) {
      var unused = channel.close();
    }
    long grace = TimeUnit.MILLISECONDS.toNanos(graceMillis);
    connections.forEach(connection -> connection.closeWhenQuiet(grace));
    LOG.infof("Stopped accepting connections; %d open ones close once between requests for %d ms",
      connections.size(), graceMillis);
  }
}
