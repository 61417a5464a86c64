package org.folio.sidecar.health;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The process's resident memory and its container's limit, read at each scrape, so a dashboard shows how close a
 * sidecar is to an OOM kill without cAdvisor or kube-state-metrics: the JVM's own gauges leave out its metaspace
 * in part, thread stacks, malloc arenas and direct buffers, which the kernel counts. The limit is NaN where none is
 * set (or outside Linux).
 */
@Startup
@Singleton
public class ProcessMemory {

  private static final Path STATUS = Path.of("/proc/self/status");
  // cgroup v2, then v1 (whose "no limit" is a huge number)
  private static final List<Path> LIMITS = List.of(Path.of("/sys/fs/cgroup/memory.max"),
    Path.of("/sys/fs/cgroup/memory/memory.limit_in_bytes"));
  private static final double NO_LIMIT_V1 = 1L << 60;

  ProcessMemory(MeterRegistry registry) {
    Gauge.builder("sidecar.memory.resident", ProcessMemory::resident).baseUnit("bytes").strongReference(true)
      .description("the process's resident set (VmRSS)").register(registry);
    Gauge.builder("sidecar.memory.limit", ProcessMemory::limit).baseUnit("bytes").strongReference(true)
      .description("the container's memory limit (cgroup); NaN where none is set").register(registry);
  }

  static double resident() {
    try {
      for (var line : Files.readAllLines(STATUS)) {
        if (line.startsWith("VmRSS:")) {
          // "VmRSS:    123456 kB"
          return Double.parseDouble(line.substring(6).replace("kB", "").strip()) * 1024;
        }
      }
    } catch (IOException | NumberFormatException e) {
      return Double.NaN;
    }
    return Double.NaN;
  }

  static double limit() {
    for (var file : LIMITS) {
      try {
        var text = Files.readString(file).strip();
        if (text.equals("max")) {
          return Double.NaN;
        }
        double bytes = Double.parseDouble(text);
        return bytes >= NO_LIMIT_V1 ? Double.NaN : bytes;
      } catch (IOException | NumberFormatException e) {
        // not this cgroup version
      }
    }
    return Double.NaN;
  }
}
