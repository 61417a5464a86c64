package org.folio.sidecar.forward;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.ObserverMethod;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.folio.sidecar.config.SidecarConfig;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;
import org.jspecify.annotations.Nullable;

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
  private static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
  private static final int BATCH = 256;

  /**
   * A line of one request: the access line on {@code transaction} at INFO, or a WARN line of another logger (why
   * the sidecar answered a request itself), with the request's ids for the MDC of the thread that writes it.
   */
  private record Line(Logger logger, boolean warning, String text, @Nullable String requestId,
    @Nullable String traceId) {
  }

  private final BlockingQueue<Line> queue;
  private final long lingerNanos;
  private final Counter dropped;
  private final AtomicBoolean droppedSaid = new AtomicBoolean();
  private final Thread thread;
  private volatile boolean stopping;
  private volatile boolean stopped;

  @Inject
  AccessLogWriter(SidecarConfig config, MeterRegistry registry) {
    this(config.accessLogQueueSize(), config.accessLogLinger(), registry);
  }

  AccessLogWriter(int capacity, Duration linger, MeterRegistry registry) {
    this.queue = new ArrayBlockingQueue<>(capacity);
    this.lingerNanos = linger.toNanos();
    this.dropped = Counter.builder("sidecar.access.log.dropped")
      .description("access lines dropped because the console could not keep up").register(registry);
    this.thread = new Thread(this::drain, "sidecar-access-log");
    thread.setDaemon(true);
    thread.start();
  }

  /** Queues a request's access line without waiting; never blocks the caller. */
  public void write(CharSequence line, @Nullable String requestId, @Nullable String traceId) {
    enqueue(new Line(TRANSACTION, false, line.toString(), requestId, traceId));
  }

  /** Queues an INFO line for {@code logger} the same way (an admin call's audit line). */
  public void info(Logger logger, String line, @Nullable String requestId, @Nullable String traceId) {
    enqueue(new Line(logger, false, line, requestId, traceId));
  }

  /** Queues a request's WARN line for {@code logger} the same way, so request threads never wait on the console. */
  public void warn(Logger logger, String line, @Nullable String requestId, @Nullable String traceId) {
    enqueue(new Line(logger, true, line, requestId, traceId));
  }

  private void enqueue(Line entry) {
    if (stopping) {
      emit(entry);
      return;
    }
    if (!queue.offer(entry)) {
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

  /**
   * Takes what is queued in batches and, while requests come, sleeps a few milliseconds when there is nothing: a
   * writer waiting on the queue would be woken by every line, a futex call and a context switch per request on the
   * event loop's side (about 8 % of the sidecar's CPU on the hit path in load/results/20261125-0210-profile-before).
   * A line so reaches the console at most {@link #IDLE_NANOS} later; each is still its own log record. After
   * SIDECAR_ACCESS_LOG_LINGER without a line the writer waits on the queue instead: 100 wake-ups a second of an
   * idle pod were about a quarter of its CPU (load/results/index.md, "Idle cost"), and the first line of the next
   * burst wakes it.
   */
  private void drain() {
    var batch = new ArrayList<Line>(BATCH);
    try {
      long quietSince = System.nanoTime();
      while (!stopping || !queue.isEmpty()) {
        if (queue.drainTo(batch, BATCH) == 0) {
          if (System.nanoTime() - quietSince < lingerNanos) {
            LockSupport.parkNanos(IDLE_NANOS);
            if (Thread.interrupted()) {
              return;
            }
            continue;
          }
          batch.add(queue.take());
        }
        batch.forEach(AccessLogWriter::emit);
        batch.clear();
        quietSince = System.nanoTime();
      }
    } catch (InterruptedException e) {
      // stop() wakes a writer waiting on an empty queue; what is left is written below
    } finally {
      stopped = true;
      flushRemaining();
    }
  }

  private synchronized void flushRemaining() {
    var rest = new ArrayList<Line>();
    queue.drainTo(rest);
    rest.forEach(AccessLogWriter::emit);
  }

  /** Writes the line with its request's ids in the MDC (this thread's own: the writer is no Vert.x thread). */
  private static void emit(Line entry) {
    RequestLogContext.put(RequestLogContext.REQUEST_ID, entry.requestId());
    RequestLogContext.put(RequestLogContext.TRACE_ID, entry.traceId());
    try {
      if (entry.warning()) {
        entry.logger().warn(entry.text());
      } else {
        entry.logger().info(entry.text());
      }
    } finally {
      MDC.remove(RequestLogContext.REQUEST_ID);
      MDC.remove(RequestLogContext.TRACE_ID);
    }
  }

  /** Whether the writer waits on an empty queue for the next line (idle, no wake-ups of its own). */
  boolean waiting() {
    return thread.getState() == Thread.State.WAITING;
  }

  boolean writerAlive() {
    return thread.isAlive();
  }

  // late among the shutdown observers: requests still ending meanwhile keep their lines
  void stop(@Observes @Priority(ObserverMethod.DEFAULT_PRIORITY + 1000) ShutdownEvent event) {
    stop();
  }

  /** Writes every queued line, then writes later ones directly. */
  void stop() {
    stopping = true;
    // a writer waiting on the queue would otherwise wait for a line that may never come
    thread.interrupt();
    try {
      thread.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    flushRemaining();
  }
}
