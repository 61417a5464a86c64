package org.folio.sidecar.load.measure;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.List;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A sidecar's JVM seen through JMX attached to its process: the bytes its threads allocated, and its heap after a
 * full GC (the live set).
 */
public final class AttachedJvm implements AutoCloseable {

  /** The heap and non-heap after a full GC, and the process's RSS then, in bytes. */
  public record LiveSet(long heapUsed, long heapCommitted, long nonHeapUsed, long rss) {

    @Override
    public String toString() {
      return "After a full GC right after the load: heap used %d MiB (committed %d MiB), non-heap used %d MiB, RSS %d MiB."
        .formatted(heapUsed >> 20, heapCommitted >> 20, nonHeapUsed >> 20, rss >> 20);
    }
  }

  private final JMXConnector connector;
  private final com.sun.management.ThreadMXBean threads;

  public AttachedJvm(long pid) throws Exception {
    var vm = VirtualMachine.attach(String.valueOf(pid));
    try {
      connector = JMXConnectorFactory.connect(new JMXServiceURL(vm.startLocalManagementAgent()));
    } finally {
      vm.detach();
    }
    threads = ManagementFactory.newPlatformMXBeanProxy(connector.getMBeanServerConnection(),
      ManagementFactory.THREAD_MXBEAN_NAME, com.sun.management.ThreadMXBean.class);
  }

  public long bytes() {
    return threads.getTotalThreadAllocatedBytes();
  }

  /** Forces a full GC and reads the heap then, beside the process's RSS. */
  public LiveSet liveSet(ProcessHandle process) throws IOException {
    var memory = ManagementFactory.newPlatformMXBeanProxy(connector.getMBeanServerConnection(),
      ManagementFactory.MEMORY_MXBEAN_NAME, MemoryMXBean.class);
    memory.gc();
    var heap = memory.getHeapMemoryUsage();
    var nonHeap = memory.getNonHeapMemoryUsage();
    long rss = ProcessMeter.start(List.of(process)).stop().peakRssBytes();
    return new LiveSet(heap.getUsed(), heap.getCommitted(), nonHeap.getUsed(), rss);
  }

  @Override
  public void close() throws IOException {
    connector.close();
  }
}
