package org.folio.sidecar.token;

import io.vertx.core.AsyncResult;
import io.vertx.ext.web.client.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * One DEBUG line per Keycloak call the sidecar makes for a token or a key (service, system-user and admin tokens,
 * token exchange and introspection for cross-tenant requests, realm keys): which call, for which realm, what
 * Keycloak answered or how the call failed, and how long it took. Logged under {@code org.folio.sidecar.token}
 * whichever package makes the call, so one category shows them all. Never the token, a secret or a user name. At
 * INFO a call costs one level check.
 */
public final class KeycloakCallLog {

  private static final Logger LOGGER = Logger.getLogger(KeycloakCallLog.class);

  private KeycloakCallLog() {
  }

  /** {@code call} names the call ("service token"), {@code startedNanos} is {@link System#nanoTime()} at its start. */
  public static void outcome(String call, String realm, AsyncResult<? extends HttpResponse<?>> result,
    long startedNanos) {
    if (!LOGGER.isDebugEnabled()) {
      return;
    }
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos);
    if (result.succeeded()) {
      LOGGER.debugf("Keycloak %s call for realm %s: answered %d after %d ms", call, realm,
        result.result().statusCode(), millis);
    } else {
      LOGGER.debugf("Keycloak %s call for realm %s: %s after %d ms", call, realm,
        KeycloakCalls.classify(result.cause()).label(), millis);
    }
  }
}
