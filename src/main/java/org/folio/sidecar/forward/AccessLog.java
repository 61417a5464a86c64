package org.folio.sidecar.forward;

import jakarta.inject.Singleton;
import org.folio.sidecar.config.SidecarConfig;
import org.jboss.logging.Logger;

/**
 * One line per request on the {@code transaction} logger (upstream's category): method, path without the
 * query string, status, tenant, user, request id, total and module time. Headers are never logged, so no
 * token can reach this line.
 */
@Singleton
public class AccessLog {

  private static final Logger LOGGER = Logger.getLogger("transaction");

  private final boolean enabled;

  AccessLog(SidecarConfig config) {
    this.enabled = config.accessLogEnabled();
  }

  public void record(Exchange exchange, int status) {
    if (!enabled || !LOGGER.isInfoEnabled()) {
      return;
    }
    long now = System.nanoTime();
    long totalMicros = (now - exchange.startNanos) / 1_000;
    long moduleMicros = exchange.moduleStartNanos == 0 ? -1
      : ((exchange.moduleAnsweredNanos == 0 ? now : exchange.moduleAnsweredNanos) - exchange.moduleStartNanos) / 1_000;
    LOGGER.infof("%s %s %d tenant=%s user=%s rid=%s total_ms=%.3f module_ms=%s",
      exchange.method, exchange.path, status, dash(exchange.tenant), dash(exchange.userId), dash(exchange.requestId),
      totalMicros / 1000.0, moduleMicros < 0 ? "-" : String.format("%.3f", moduleMicros / 1000.0));
  }

  private static String dash(String value) {
    return value == null ? "-" : value;
  }
}
