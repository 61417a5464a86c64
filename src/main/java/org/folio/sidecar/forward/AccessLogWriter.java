package org.folio.sidecar.forward;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.ObserverMethod;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.folio.sidecar.config.SidecarConfig;
import org.jboss.logging.Logger;

/**
 * Writes access lines from a thread of its own, so a slow console (a container runtime's pipe under load)
 * stalls that thread, never the event loop. The queue is bounded: when it is full a line is dropped, counted in
 * {@code sidecar_access_log_dropped_total} and said once in the log. A normal shutdown writes every queued line
 * before it returns; lines of requests that end after it are written directly.
 */
@Singleton
public class AccessLogWriter {

  static final Logger TRANSACTION = Logger.getLogger("transaction");
  private static final Logger LOGGER = Logger.getLogger(AccessLogWriter.class);

  private final BlockingQueue<String> queue;
  private final Counter dropped;
  private final AtomicBoolean droppedSaid = new AtomicBoolean();
  private final Thread thread;
  private volatile boolean stopping;
  private volatile boolean stopped;

  @Inject
  AccessLogWriter(SidecarConfig config, MeterRegistry registry) {
    this(config.accessLogQueueSize(), registry);
  }

  AccessLogWriter(int capacity, MeterRegistry registry) {
    this.queue = new ArrayBlockingQueue<>(capacity);
    this.dropped = Counter.builder("sidecar.access.log.dropped")
      .description("access lines dropped because the console could not keep up").register(registry);
    this.thread = new Thread(this::drain, "sidecar-access-log");
    thread.setDaemon(true);
    thread.start();
  }

  /** Queues a line without waiting; never blocks the caller. */
  public void write(CharSequence line) {
    if (stopping) {
      TRANSACTION.info(line);
      return;
    }
    if (!queue.offer(line.toString())) {
      dropped.increment();
      if (droppedSaid.compareAndSet(false, true)) {
        LOGGER.warn("The console does not keep up with the access log; lines are dropped and counted in"
          + " sidecar_access_log_dropped_total");
      }
    } else if (stopped) {
      // offered while the writer finished: write what it could not
      flushRemaining();
    }
  }

  private void drain() {
    try {
      while (!stopping || !queue.isEmpty()) {
        var line = queue.poll(100, TimeUnit.MILLISECONDS);
        if (line != null) {
          TRANSACTION.info(line);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      stopped = true;
      flushRemaining();
    }
  }

  private synchronized void flushRemaining() {
    var rest = new ArrayList<String>();
    queue.drainTo(rest);
    rest.forEach(TRANSACTION::info);
  }

  // late among the shutdown observers: requests still ending meanwhile keep their lines
  void stop(@Observes @Priority(ObserverMethod.DEFAULT_PRIORITY + 1000) ShutdownEvent event) {
    stop();
  }

  /** Writes every queued line, then writes later ones directly. */
  void stop() {
    stopping = true;
    try {
      thread.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    flushRemaining();
  }
}
