package org.folio.sidecar.edge;

import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

/**
 * The first phase of a graceful stop. On SIGTERM Quarkus announces its shutdown delay (SIDECAR_SHUTDOWN_DELAY)
 * before it stops taking requests: from then on readiness is DOWN, so the pod leaves its Service, and every
 * HTTP/1 answer closes its connection ({@code Connection: close}), so keep-alive callers open their next
 * connection elsewhere instead of meeting a closed port. Quarkus then waits up to SIDECAR_SHUTDOWN_TIMEOUT for
 * requests in flight, answering new ones 503, and exits.
 */
@Singleton
public class Drain {

  private volatile boolean draining;

  void started(@Observes ShutdownDelayInitiatedEvent event) {
    draining = true;
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
}
