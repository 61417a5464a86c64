package org.folio.sidecar.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Assertions on the access lines a test captured: the line is written when the response ends, so it may trail. */
public final class AccessLines {

  private AccessLines() {
  }

  /** Waits for an access line of {@code request} (e.g. {@code GET /items/1 401}) whose reason contains {@code reason}. */
  public static void assertReason(LogCapture capture, String request, String reason) {
    await().atMost(Waits.STATE).untilAsserted(() -> assertThat(capture.lines())
      .anyMatch(line -> line.startsWith("transaction ") && line.contains("(access) " + request + " ")
        && line.matches(".* reason=\".*\"$")
        && line.substring(line.indexOf(" reason=\"")).contains(reason)));
  }
}
