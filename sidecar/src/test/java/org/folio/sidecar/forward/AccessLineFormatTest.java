package org.folio.sidecar.forward;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** SC_ACCESS_LOG_FORMAT in upstream's notation renders upstream's line, so log pipelines keep parsing it. */
class AccessLineFormatTest {

  private static final Instant AT = Instant.parse("2026-11-24T06:40:00Z");

  @Test
  void upstreamsDefaultFormatRendersUpstreamsLine() {
    var more = new java.util.HashMap<String, String>(Map.of("remote-ip", "10.0.0.7", "remote-host", "10.0.0.7",
      "remote-user", "-", "method", "GET", "path", "/circulation/loans", "protocol", "HTTP/1.1", "status", "200",
      "bytes", "512"));
    more.putAll(Map.of("rt", "0.043", "uct", "0.001", "uht", "0.040", "urt", "0.043", "user-agent", "okhttp/4",
      "x-okapi-tenant", "diku", "x-okapi-user-id", "u-1", "x-okapi-request-id",
      "123456/circulation;654321/circulation"));

    var line = AccessLineFormat.parse(AccessLineFormat.UPSTREAM_DEFAULT).render(more::get, AT);

    var time = DateTimeFormatter.ofPattern("dd/MM/yyyy:HH:mm:ss z", Locale.ROOT).withZone(ZoneId.systemDefault())
      .format(AT);
    assertThat(line).isEqualTo("10.0.0.7 - 10.0.0.7 - - [" + time + "] \"GET /circulation/loans HTTP/1.1\" 200 512"
      + " rt=0.043  uct=\"0.001\"  uht=\"0.040\"  urt=\"0.043\"  \"okhttp/4\" \"diku\" \"u-1\""
      + " \"123456/circulation;654321/circulation\" ");
  }

  @Test
  void anOperatorsFormatPicksItsFieldsAndLeavesUnknownOnesEmpty() {
    var line = AccessLineFormat.parse("%X{method} %X{path} %X{status} tenant=%X{x-okapi-tenant} why=%X{reason}"
      + " nothing=%X{no-such-field} 100%%n").render(
        Map.of("method", "POST", "path", "/items", "status", "401",
          "x-okapi-tenant", "diku", "reason", "token expired")::get,
        AT);

    assertThat(line).isEqualTo("POST /items 401 tenant=diku why=token expired nothing= 100%");
  }

  @Test
  void whatACallerSendsCannotEndItsFieldOrTheLine() {
    var agent = "curl\" \"x\\y\r\nfake 200 line\u001b[31m";

    var line = AccessLineFormat.parse(AccessLineFormat.UPSTREAM_DEFAULT)
      .render(Map.of("user-agent", agent, "x-okapi-request-id", "1\"2;345678/items")::get, AT);

    // one line, and every quote in it is one the format put there or an escaped one
    assertThat(line).doesNotContain("\n", "\r", "\u001b")
      .contains("\"curl\\\" \\\"x\\\\y\\r\\nfake 200 line\\u001b[31m\"")
      .contains("\"1\\\"2;345678/items\"");
    assertThat(line.replace("\\\\", "").replace("\\\"", "").chars().filter(c -> c == '"').count())
      .isEqualTo(16);
  }
}
