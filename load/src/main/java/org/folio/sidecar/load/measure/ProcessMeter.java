package org.folio.sidecar.load.measure;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * CPU time and resident memory of a group of processes (each with its descendants, summed) over one measured
 * window, read from /proc: CPU as the difference between the window's ends, memory as the highest sum a
 * sampler saw every 200 ms. The group may change in the window (a fleet restarted): a process that exits keeps
 * the CPU time last seen (at most 200 ms short), one that starts counts all of its own.
 */
public final class ProcessMeter {

  /** What one window cost the group. */
  public record Usage(double cpuSeconds, long peakRssBytes) {
  }

  private final Supplier<List<ProcessHandle>> roots;
  private final Thread sampler;
  /** CPU seconds of every process of the group seen in the window, by pid, as last read. */
  private final Map<Long, Double> cpuByPid = new ConcurrentHashMap<>();
  private final double cpuAtStart;
  private volatile long peakRss;

  private ProcessMeter(Supplier<List<ProcessHandle>> roots) {
    this.roots = roots;
    this.cpuAtStart = cpuSeconds();
    this.peakRss = rssBytes();
    this.sampler = Thread.ofPlatform().daemon().name("process-meter").start(this::sample);
  }

  public static ProcessMeter start(List<ProcessHandle> roots) {
    return new ProcessMeter(() -> roots);
  }

  /** A group whose members are asked again at every sample, e.g. a fleet whose processes are replaced. */
  public static ProcessMeter start(Supplier<List<ProcessHandle>> roots) {
    return new ProcessMeter(roots);
  }

  public Usage stop() {
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
      cpuSeconds();
    }
  }

  private List<ProcessHandle> group() {
    return roots.get().stream().flatMap(root -> Stream.concat(Stream.of(root), root.descendants()))
      .filter(ProcessHandle::isAlive).toList();
  }

  /** The group's CPU seconds so far: those of live processes read now, those of exited ones as last read. */
  private double cpuSeconds() {
    for (var process : group()) {
      process.info().totalCpuDuration()
        .ifPresent(cpu -> cpuByPid.merge(process.pid(), cpu.toNanos() / 1e9, Math::max));
    }
    return cpuByPid.values().stream().mapToDouble(Double::doubleValue).sum();
  }

  private long rssBytes() {
    long total = 0;
    for (var process : group()) {
      total += Footprint.ProcStatus.of(process.pid()).map(Footprint.ProcStatus::rssBytes).orElse(0L);
    }
    return total;
  }
}
