package org.folio.sidecar.health;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The memory gauges read this process (Linux): a resident set, and a limit or NaN where none is set. */
class ProcessMemoryTest {

  @Test
  void readsTheResidentSetAndTheLimit() {
    assertThat(ProcessMemory.resident()).isGreaterThan(1 << 20);
    var limit = ProcessMemory.limit();
    assertThat(Double.isNaN(limit) || limit > 1 << 20).as("limit %s", limit).isTrue();
  }
}
