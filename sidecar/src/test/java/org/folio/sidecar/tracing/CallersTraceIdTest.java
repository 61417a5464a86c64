package org.folio.sidecar.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** With tracing off the log's trace id is the caller's, taken only from a well-formed W3C traceparent. */
class CallersTraceIdTest {

  @Test
  void aWellFormedTraceparentGivesItsTraceId() {
    assertThat(Tracing.traceIdOf("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
      .isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
  }

  @Test
  void anythingElseGivesNoneRatherThanCallerTextInTheLog() {
    assertThat(Tracing.traceIdOf(null)).isNull();
    assertThat(Tracing.traceIdOf("garbage")).isNull();
    // upper case, a quote, the all-zero id W3C calls invalid, and a short one
    assertThat(Tracing.traceIdOf("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01")).isNull();
    assertThat(Tracing.traceIdOf("00-4bf92f3577b34da6a3ce929d0e0e47\"6-00f067aa0ba902b7-01")).isNull();
    assertThat(Tracing.traceIdOf("00-00000000000000000000000000000000-00f067aa0ba902b7-01")).isNull();
    assertThat(Tracing.traceIdOf("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa")).isNull();
  }
}
