package org.folio.sidecar.load.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A fleet's memory and threads at the moments issue 28 names: after start (ready, before any traffic), at idle
 * (the workload over, nothing sent for a few seconds), and after a full GC ({@code jcmd GC.run}, which any HotSpot
 * baseline answers); and the fixed cost issue 44 names, the cores a sidecar uses while nobody calls it (its timers,
 * token renewals, GC), over an idle window after the workload. Figures are per sidecar, the mean over the fleet, as
 * a pod's limit is per sidecar.
 */
public record Footprint(long afterStartBytes, long idleBytes, long afterGcBytes, int idleThreads, double idleCores,
  Duration idleWindow) {

  /** Reads the idle and after-GC figures of a fleet whose after-start snapshot was taken. */
  public static Footprint afterWorkload(List<ProcessHandle> processes, Snapshot afterStart, Duration idleWindow)
    throws InterruptedException {
    Thread.sleep(3_000); // idle: no request for a few seconds, the workload's last answers and logs written
    var idle = snapshot(processes);
    var meter = ProcessMeter.start(processes);
    Thread.sleep(idleWindow.toMillis());
    double cores = meter.stop().cpuSeconds() / Math.max(1, processes.size()) / (idleWindow.toMillis() / 1000.0);
    fullGc(processes);
    var afterGc = snapshot(processes);
    return new Footprint(afterStart.rssBytes(), idle.rssBytes(), afterGc.rssBytes(), idle.threads(), cores,
      idleWindow);
  }

  /** Mean resident memory of the processes now, and the mean thread count. */
  public static Snapshot snapshot(List<ProcessHandle> processes) {
    long rss = 0;
    long threads = 0;
    int read = 0;
    for (var process : processes) {
      var status = ProcStatus.of(process.pid());
      if (status.isPresent()) {
        rss += status.get().rssBytes();
        threads += status.get().threads();
        read++;
      }
    }
    return read == 0 ? new Snapshot(-1, -1) : new Snapshot(rss / read, (int) (threads / read));
  }

  /** Asks every process for a full collection and waits for each to finish it (bounded). */
  private static void fullGc(List<ProcessHandle> processes) {
    var jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
    for (var process : processes) {
      try {
        var gc = new ProcessBuilder(jcmd, String.valueOf(process.pid()), "GC.run").redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!gc.waitFor(30, TimeUnit.SECONDS)) {
          gc.destroyForcibly();
        }
      } catch (IOException e) {
        // not a HotSpot process: its after-GC figure reads as the plain one
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  public record Snapshot(long rssBytes, int threads) {
  }

  /** The two lines of {@code /proc/<pid>/status} the load harnesses read. */
  record ProcStatus(long rssBytes, int threads) {

    static Optional<ProcStatus> of(long pid) {
      try {
        long rss = -1;
        int threads = -1;
        for (var line : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"))) {
          if (line.startsWith("VmRSS:")) {
            rss = Long.parseLong(line.replaceAll("\\D", "")) * 1024;
          } else if (line.startsWith("Threads:")) {
            threads = Integer.parseInt(line.replaceAll("\\D", ""));
          }
        }
        return rss < 0 ? Optional.empty() : Optional.of(new ProcStatus(rss, threads));
      } catch (IOException | RuntimeException e) {
        return Optional.empty(); // the process ended between listing and reading
      }
    }
  }
}
