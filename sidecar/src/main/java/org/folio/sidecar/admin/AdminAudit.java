package org.folio.sidecar.admin;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * One line and one count per admin call, granted or refused: who (the credential's id, or {@code -}, and the peer
 * address), what (method, path, query), and the result (status, outcome, and what the call did). Never the
 * credential: the query is the only caller text logged, cut and stripped of control characters.
 */
@Singleton
public class AdminAudit {

  private static final Logger LOG = Logger.getLogger(AdminAudit.class);
  private static final int MAX_QUERY = 300;

  private final MeterRegistry registry;

  AdminAudit(MeterRegistry registry) {
    this.registry = registry;
  }

  /**
   * {@code endpoint} is one of the API's endpoint names or {@code unknown}, {@code outcome} one of a few words
   * (ok, unauthenticated, forbidden, bad_request, not_found, method_not_allowed, unavailable, error): the
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
      LOG.info(line);
    } else {
      LOG.warn(line);
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
