package org.folio.sidecar.forward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.logging.Logger;
import org.folio.sidecar.support.StalledConsole;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A console that stops reading never holds up the writer's callers; a stop writes every queued line first; a writer
 * that has gone quiet (waiting on its queue) still writes the next line and still stops.
 */
class AccessLogWriterTest {

  private static final Duration LINGER = Duration.ofSeconds(1);
  private final StalledConsole console = new StalledConsole();
  private final Logger transaction = Logger.getLogger("transaction");

  {
    transaction.addHandler(console);
  }

  @AfterEach
  void detach() {
    console.resume();
    transaction.removeHandler(console);
  }

  @Test
  void aStalledConsoleDoesNotHoldUpWritersAndGetsEveryLineOnceItReads() {
    var writer = new AccessLogWriter(10_000, LINGER, new SimpleMeterRegistry());

    // the test thread stands for the event loop: it must get through while nobody reads the console
    assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
      for (int i = 0; i < 5_000; i++) {
        writer.write("line " + i, null, null);
      }
    });
    console.resume();

    await().atMost(Duration.ofSeconds(30)).until(() -> console.lines().size() == 5_000);
    assertThat(console.lines()).startsWith("line 0", "line 1").endsWith("line 4999");
  }

  @Test
  void aStopWritesEveryQueuedLineBeforeItReturnsAndLaterLinesDirectly() {
    var writer = new AccessLogWriter(10_000, LINGER, new SimpleMeterRegistry());
    for (int i = 0; i < 200; i++) {
      writer.write("queued " + i, null, null);
    }
    console.resume();

    writer.stop();

    assertThat(console.lines()).hasSize(200);
    writer.write("after the stop", null, null);
    assertThat(console.lines()).hasSize(201).endsWith("after the stop");
  }

  @Test
  void overloadDropsAndCountsLinesInsteadOfBlocking() {
    var registry = new SimpleMeterRegistry();
    var writer = new AccessLogWriter(10, LINGER, registry);

    assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
      for (int i = 0; i < 100; i++) {
        writer.write("line " + i, null, null);
      }
    });
    console.resume();
    writer.stop();

    double dropped = registry.get("sidecar.access.log.dropped").counter().count();
    assertThat(dropped).isBetween(1.0, 90.0);
    assertThat(console.lines().size() + (long) dropped).isEqualTo(100);
  }

  @Test
  void aWriterThatHasGoneQuietWritesTheNextLine() {
    var writer = new AccessLogWriter(10_000, Duration.ZERO, new SimpleMeterRegistry());
    console.resume();
    await().atMost(Duration.ofSeconds(30)).until(writer::waiting);

    writer.write("after the quiet", null, null);

    await().atMost(Duration.ofSeconds(30)).until(() -> console.lines().contains("after the quiet"));
    writer.stop();
  }

  @Test
  void aStopEndsAWriterThatHasGoneQuietAndWritesLaterLinesDirectly() {
    var writer = new AccessLogWriter(10_000, Duration.ZERO, new SimpleMeterRegistry());
    console.resume();
    await().atMost(Duration.ofSeconds(30)).until(writer::waiting);

    writer.stop();

    assertThat(writer.waiting()).isFalse();
    assertThat(writer.writerAlive()).isFalse();
    writer.write("after the stop", null, null);
    assertThat(console.lines()).containsExactly("after the stop");
  }
}
