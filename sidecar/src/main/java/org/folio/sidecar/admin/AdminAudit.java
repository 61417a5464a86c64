package org.folio.sidecar.admin;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import jakarta.inject.Singleton;
import java.time.Duration;
import org.folio.sidecar.config.AdminConfig;
import org.folio.sidecar.forward.AccessLogWriter;
import org.folio.sidecar.time.Timers;
import org.jboss.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * One line and one count per admin call, granted or refused: who (the credential's id, or {@code -}, and the peer
 * address), what (method, path, query), and the result (status, outcome, and what the call did). Never the
 * credential: the query is the only caller text logged, cut and stripped of control characters. Lines go through
 * the access log's queue ({@link AccessLogWriter}), so a slow console never stalls the management event loop.
 * Calls refused for their credential are anyone's to send at any rate: at most SIDECAR_ADMIN_AUDIT_REFUSED_LINES of
 * them are written per SIDECAR_ADMIN_AUDIT_INTERVAL, the rest counted in {@code sidecar_admin_audit_suppressed_total}
 * and said in one line at the interval's end. Every call is counted in {@code sidecar_admin_requests_total}.
 */
@Singleton
public class AdminAudit {

  private static final Logger LOG = Logger.getLogger(AdminAudit.class);
  private static final int MAX_QUERY = 300;

  private final MeterRegistry registry;
  private final AccessLogWriter writer;
  private final Timers timers;
  private final int refusedLines;
  private final Duration interval;
  private final Counter suppressedTotal;
  // the interval's refusals: guarded by this; an interval opens with its first refused line and its timer
  private boolean intervalOpen;
  private int written;
  private int suppressed;

  AdminAudit(MeterRegistry registry, AccessLogWriter writer, Timers timers, AdminConfig config) {
    this.registry = registry;
    this.writer = writer;
    this.timers = timers;
    this.refusedLines = config.auditRefusedLines();
    this.interval = config.auditInterval();
    this.suppressedTotal = Counter.builder("sidecar.admin.audit.suppressed")
      .description("audit lines of admin calls refused for their credential, over the rate and not written")
      .register(registry);
  }

  /**
   * {@code endpoint} is one of the API's endpoint names or {@code unknown}, {@code outcome} one of a few words
   * (ok, unauthenticated, forbidden, throttled, bad_request, not_found, method_not_allowed, unavailable, error): the
   * counter's labels stay bounded whatever callers send.
   */
  void record(HttpServerRequest request, @Nullable String caller, String endpoint, int status, String outcome,
    @Nullable String detail) {
    Counter.builder("sidecar.admin.requests").description("admin API calls by endpoint and outcome")
      .tag("endpoint", endpoint).tag("outcome", outcome).register(registry).increment();
    var line = "admin call: caller=" + (caller == null ? "-" : caller) + " peer=" + peer(request.remoteAddress())
      + " action=\"" + request.method() + " " + printable(request.path()) + query(request.query()) + "\" endpoint="
      + endpoint + " status=" + status + " outcome=" + outcome + (detail == null ? "" : " " + detail);
    if (status < 400) {
      writer.info(LOG, line, null, null);
    } else if (caller != null || withinRate()) {
      writer.warn(LOG, line, null, null);
    }
  }

  /** Whether a refused call's line is written; if not, it is counted and said at the interval's end. */
  private synchronized boolean withinRate() {
    if (!intervalOpen) {
      intervalOpen = true;
      timers.schedule(interval, this::closeInterval);
    }
    if (written < refusedLines) {
      written++;
      return true;
    }
    suppressed++;
    suppressedTotal.increment();
    return false;
  }

  /** Ends the interval: the timer's task, and a test's way to begin with a whole interval. */
  void closeInterval() {
    int left;
    synchronized (this) {
      left = suppressed;
      intervalOpen = false;
      written = 0;
      suppressed = 0;
    }
    if (left > 0) {
      writer.warn(LOG, "admin calls refused for their credential: " + left + " more in the last " + interval
        + " not written (SIDECAR_ADMIN_AUDIT_REFUSED_LINES, sidecar_admin_audit_suppressed_total)", null, null);
    }
  }

  private static String peer(@Nullable SocketAddress address) {
    return address == null ? "-" : address.hostAddress() + ":" + address.port();
  }

  private static String query(@Nullable String query) {
    return query == null || query.isEmpty() ? "" : "?" + printable(query);
  }

  /** Visible ASCII only, at most {@value #MAX_QUERY} characters: a caller cannot forge or flood a log line. */
  static String printable(@Nullable String text) {
    if (text == null) {
      return "";
    }
    var out = new StringBuilder(Math.min(text.length(), MAX_QUERY));
    for (int i = 0; i < text.length() && out.length() < MAX_QUERY; i++) {
      char c = text.charAt(i);
      out.append(c > 0x20 && c < 0x7f && c != '"' ? c : '?');
    }
    return text.length() > MAX_QUERY ? out + "..." : out.toString();
  }
}
