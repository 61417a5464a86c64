package org.folio.sidecar.support;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.jboss.logmanager.ExtLogRecord;

/** A console whose reader has stalled (a container runtime's pipe under load) until {@link #resume()}. */
public final class StalledConsole extends Handler {

  private final CountDownLatch reading = new CountDownLatch(1);
  private final List<String> lines = new CopyOnWriteArrayList<>();

  public StalledConsole() {
    setLevel(Level.ALL);
  }

  @Override
  public void publish(LogRecord record) {
    try {
      reading.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    lines.add(record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage());
  }

  public void resume() {
    reading.countDown();
  }

  /** What the console was given, once it reads. */
  public List<String> lines() {
    return lines;
  }

  @Override
  public void flush() {
  }

  @Override
  public void close() {
  }
}
