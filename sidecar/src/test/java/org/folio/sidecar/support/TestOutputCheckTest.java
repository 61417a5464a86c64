package org.folio.sidecar.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBufAllocator;
import io.netty.util.IllegalReferenceCountException;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.folio.sidecar.testkit.TestOutputCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The build's check of the tests' output (root pom.xml) proven on real Netty output: a JVM with the leak detector
 * at paranoid, as every test JVM has it, that drops a buffer or releases one twice fails the check; one that owns
 * its buffers rightly passes it. An exception no event-loop handler took fails it too.
 */
class TestOutputCheckTest {

  private static final String BUILD_START = "2026-01-01T00:00:00Z";
  private static final Instant START = Instant.parse(BUILD_START);

  @TempDir
  Path reports;

  @Test
  void aLeakedBufferFailsTheBuild() throws Exception {
    run(Owner.LEAK, "LeakyTest-output.txt");

    assertThat(TestOutputCheck.findings(reports, START)).singleElement().asString()
      .startsWith("LeakyTest-output.txt: ").contains("LEAK:");
    assertThatThrownBy(() -> TestOutputCheck.main(new String[]{BUILD_START, reports.toString()}))
      .hasMessageContaining("LeakyTest-output.txt");
  }

  @Test
  void aBufferReleasedTwiceFailsTheBuild() throws Exception {
    run(Owner.TWICE, "TwiceTest-output.txt");

    assertThat(TestOutputCheck.findings(reports, START)).isNotEmpty()
      .allMatch(line -> line.startsWith("TwiceTest-output.txt: ") && line.contains("IllegalReferenceCountException"));
    assertThatThrownBy(() -> TestOutputCheck.main(new String[]{BUILD_START, reports.toString()}))
      .hasMessageContaining("IllegalReferenceCountException");
  }

  @Test
  void anExceptionNoHandlerTookFailsTheBuild() throws Exception {
    // Quarkus' line for an exception thrown on an event loop that no handler took (RelayedBodiesStayApartTest's
    // output held 34 of these from RequestForwarder.giveUp before it asked for the answer's end while relaying)
    Files.writeString(reports.resolve("UncaughtTest-output.txt"), "2026-11-29 04:14:28,043 ERROR "
      + "[io.qua.ver.cor.run.VertxCoreRecorder] (vert.x-eventloop-thread-0) Uncaught exception received by Vert.x: "
      + "java.lang.IllegalStateException\n\tat io.vertx.core.http.impl.HttpClientResponseImpl.checkEnded\n");

    assertThatThrownBy(() -> TestOutputCheck.main(new String[]{BUILD_START, reports.toString()}))
      .hasMessageContaining("UncaughtTest-output.txt").hasMessageContaining("Uncaught exception received by Vert.x");
  }

  @Test
  void anEarlierRunsOutputIsNotRead() throws Exception {
    run(Owner.LEAK, "LeakyTest-output.txt");
    Files.setLastModifiedTime(reports.resolve("LeakyTest-output.txt"),
      FileTime.from(START.minus(Duration.ofMinutes(1))));

    assertThat(TestOutputCheck.findings(reports, START)).isEmpty();
  }

  @Test
  void buffersOwnedRightlyPass() throws Exception {
    run(Owner.RIGHTLY, "CleanTest-output.txt");
    // other report files are not test output
    Files.writeString(reports.resolve("CleanTest.txt"), "LEAK: in a summary, not in the output\n");

    assertThat(TestOutputCheck.findings(reports, START)).isEmpty();
    TestOutputCheck.main(new String[]{BUILD_START, reports.toString(), reports.resolve("absent").toString()});
  }

  /** Runs {@link Owner} in a JVM of its own, its output into {@code file}, as Surefire would write it. */
  private void run(Owner owner, String file) throws IOException, InterruptedException {
    var java = ProcessHandle.current().info().command().orElse("java");
    var process = new ProcessBuilder(java, "-Dio.netty.leakDetection.level=paranoid", "-cp",
      System.getProperty("java.class.path"), Owner.class.getName(), owner.name())
      .redirectErrorStream(true).redirectOutput(reports.resolve(file).toFile()).start();
    assertThat(process.waitFor(Waits.STATE.toMillis(), TimeUnit.MILLISECONDS)).as("the JVM ended").isTrue();
    assertThat(process.exitValue()).as(Files.readString(reports.resolve(file))).isZero();
  }

  /** A program that owns one buffer the way its argument says. */
  enum Owner {
    LEAK, TWICE, RIGHTLY;

    private static final int ROUNDS = 1_000;

    public static void main(String[] args) {
      InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
      if (ResourceLeakDetector.getLevel() != ResourceLeakDetector.Level.PARANOID) {
        throw new IllegalStateException("the leak detector is not at paranoid: " + ResourceLeakDetector.getLevel());
      }
      var reported = new AtomicBoolean();
      Logger.getLogger("").addHandler(new Handler() {
        @Override
        public void publish(LogRecord record) {
          reported.compareAndSet(false, record.getMessage() != null && record.getMessage().contains("LEAK:"));
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
      });
      switch (valueOf(args[0])) {
        case LEAK -> {
          drop();
          for (int i = 0; i < ROUNDS && !reported.get(); i++) {
            System.gc();
            ByteBufAllocator.DEFAULT.buffer(16).release();
          }
          if (!reported.get()) {
            throw new IllegalStateException("no leak reported");
          }
        }
        case TWICE -> {
          var buffer = ByteBufAllocator.DEFAULT.buffer(16).writeLong(42);
          buffer.release();
          try {
            buffer.release();
          } catch (IllegalReferenceCountException e) {
            e.printStackTrace();
          }
        }
        case RIGHTLY -> {
          ByteBufAllocator.DEFAULT.buffer(16).writeLong(42).release();
          for (int i = 0; i < 10; i++) {
            System.gc();
            ByteBufAllocator.DEFAULT.buffer(16).release();
          }
        }
      }
    }

    /**
     * Drops a buffer unreleased: once it is collected, the next allocation reports it. Nothing else may hold a
     * buffer allocated before it: a pooled buffer's object is reused, and a stale reference keeps it alive.
     */
    private static void drop() {
      var unused = ByteBufAllocator.DEFAULT.buffer(16).writeLong(42);
    }
  }
}
