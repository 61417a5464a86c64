package org.folio.sidecar.forward;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AccessLogTest {

  @Test
  void timesReadAsMillisecondsWithThreeDecimals() {
    assertThat(millis(0)).isEqualTo("0.000");
    assertThat(millis(5)).isEqualTo("0.005");
    assertThat(millis(42)).isEqualTo("0.042");
    assertThat(millis(1_050)).isEqualTo("1.050");
    assertThat(millis(123_456)).isEqualTo("123.456");
    assertThat(millis(60_000_001)).isEqualTo("60000.001");
  }

  private static String millis(long micros) {
    return AccessLog.appendMillis(new StringBuilder(), micros).toString();
  }
}
