package org.folio.sidecar.error;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.folio.sidecar.support.LogCapture;
import org.junit.jupiter.api.Test;

/** A dependency's loss and return are one line each, however many calls fail or succeed in between. */
class AvailabilityTest {

  @Test
  void aLossAndAReturnAreOneLineEach() {
    var now = new AtomicLong();
    try (var log = LogCapture.install()) {
      var keycloak = new Availability("Keycloak is unreachable: %s; cached grants keep serving",
        "Keycloak is reachable again after %d s", now::get);
      keycloak.up();
      keycloak.down("refused");
      keycloak.down("refused");
      keycloak.down("timeout");
      now.addAndGet(Duration.ofSeconds(95).toNanos());
      keycloak.up();
      keycloak.up();
      keycloak.down("refused");

      assertThat(log.lines()).filteredOn(line -> line.contains("Keycloak is")).containsExactly(
        Availability.class.getName() + " Keycloak is unreachable: refused; cached grants keep serving",
        Availability.class.getName() + " Keycloak is reachable again after 95 s",
        Availability.class.getName() + " Keycloak is unreachable: refused; cached grants keep serving");
    }
  }

  @Test
  void aDependencyDownAtStartUpIsSaid() {
    try (var log = LogCapture.install()) {
      new Availability("Kafka is unreachable: %s", "Kafka is reachable again after %d s", () -> 0L)
        .down("no broker");

      assertThat(log.lines()).filteredOn(line -> line.contains("Kafka is"))
        .containsExactly(Availability.class.getName() + " Kafka is unreachable: no broker");
    }
  }
}
