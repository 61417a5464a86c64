package org.folio.sidecar.forward;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The access line's cost on the event loop, what every request pays (load/results/20261125-0210-profile-before):
 * rendering upstream's default line, and handing it to the writer thread. Prints ns/op and bytes allocated per op.
 * Run with {@code load/jmh.sh org.folio.sidecar.forward.AccessLogBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AccessLogBenchmark {

  private static final Map<String, String> FIELDS = Map.ofEntries(Map.entry("remote-ip", "10.42.0.17"),
    Map.entry("remote-host", "10.42.0.17"), Map.entry("remote-user", "-"), Map.entry("method", "GET"),
    Map.entry("path", "/users/2c8a7f4e-6f7b-4a36-9a51-0e4bb3a7c9d2"), Map.entry("protocol", "HTTP/1.1"),
    Map.entry("status", "200"), Map.entry("bytes", "412"), Map.entry("rt", "0.004"), Map.entry("uct", "0.001"),
    Map.entry("uht", "0.003"), Map.entry("urt", "0.004"), Map.entry("user-agent", "okhttp/4.12.0"),
    Map.entry("x-okapi-tenant", "diku"), Map.entry("x-okapi-user-id", "2c8a7f4e-6f7b-4a36-9a51-0e4bb3a7c9d2"),
    Map.entry("x-okapi-request-id", "482913/circulation;077120/users"));

  private final AccessLineFormat format = AccessLineFormat.parse(AccessLineFormat.UPSTREAM_DEFAULT);
  private final Instant now = Instant.parse("2026-11-25T02:10:00Z");
  private String line = "";
  private AccessLogWriter writer;

  @Setup(org.openjdk.jmh.annotations.Level.Trial)
  public void start() {
    // the writer's thread takes every line as in the sidecar; the console is off so the figure is the hand-off
    Logger.getLogger("transaction").setLevel(Level.OFF);
    // lines come without pause: the writer never stops looking for them (SIDECAR_ACCESS_LOG_LINGER is not reached)
    writer = new AccessLogWriter(100_000, Duration.ofSeconds(1), new SimpleMeterRegistry());
    line = render();
  }

  @TearDown(org.openjdk.jmh.annotations.Level.Trial)
  public void stop() {
    writer.stop();
  }

  @Benchmark
  public String render() {
    return format.render(FIELDS::get, now);
  }

  @Benchmark
  public void handOff() {
    writer.write(line, "482913/circulation;077120/users", null);
  }

  public static void main(String[] args) throws RunnerException {
    new Runner(new OptionsBuilder()
      .include(AccessLogBenchmark.class.getSimpleName())
      .forks(1)
      .warmupIterations(3).warmupTime(TimeValue.seconds(1))
      .measurementIterations(5).measurementTime(TimeValue.seconds(1))
      .addProfiler(GCProfiler.class)
      .build()).run();
  }
}
