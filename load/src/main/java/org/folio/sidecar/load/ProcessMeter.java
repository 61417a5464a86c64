package org.folio.sidecar.load;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * CPU time and resident memory of a group of processes (each with its descendants, summed) over one measured
 * window, read from /proc: CPU as the difference between the window's ends, memory as the highest sum a
 * sampler saw every 200 ms.
 */
final class ProcessMeter {

  /** What one window cost the group. */
  record Usage(double cpuSeconds, long peakRssBytes) {
  }

  private final List<ProcessHandle> roots;
  private final Thread sampler;
  private final double cpuAtStart;
  private volatile long peakRss;

  private ProcessMeter(List<ProcessHandle> roots) {
    this.roots = roots;
    this.cpuAtStart = cpuSeconds();
    this.peakRss = rssBytes();
    this.sampler = Thread.ofPlatform().daemon().name("process-meter").start(this::sample);
  }

  static ProcessMeter start(List<ProcessHandle> roots) {
    return new ProcessMeter(roots);
  }

  Usage stop() {
    sampler.interrupt();
    return new Usage(cpuSeconds() - cpuAtStart, Math.max(peakRss, rssBytes()));
  }

  private void sample() {
    while (true) {
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        return;
      }
      peakRss = Math.max(peakRss, rssBytes());
    }
  }

  private List<ProcessHandle> group() {
    return roots.stream().flatMap(root -> Stream.concat(Stream.of(root), root.descendants()))
      .filter(ProcessHandle::isAlive).toList();
  }

  private double cpuSeconds() {
    return group().stream()
      .mapToDouble(process -> process.info().totalCpuDuration().orElse(Duration.ZERO).toNanos() / 1e9).sum();
  }

  private long rssBytes() {
    long total = 0;
    for (var process : group()) {
      total += Footprint.ProcStatus.of(process.pid()).map(Footprint.ProcStatus::rssBytes).orElse(0L);
    }
    return total;
  }
}
