package org.folio.sidecar.support;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jboss.logmanager.ExtLogRecord;

/** Collects every log line of the test JVM (message and stack trace) while installed. */
public final class LogCapture extends Handler implements AutoCloseable {

  private static final String TRANSACTION = "transaction";

  private final List<String> lines = new CopyOnWriteArrayList<>();
  /** The categories whose level this capture set, with the level each had before; held, so they stay configured. */
  private final Map<Logger, Level> levelsBefore = new HashMap<>();

  public static LogCapture install() {
    var capture = new LogCapture();
    capture.setLevel(Level.ALL);
    Logger.getLogger("").addHandler(capture);
    // the access log has a handler of its own and does not reach the root's
    Logger.getLogger(TRANSACTION).addHandler(capture);
    return capture;
  }

  /**
   * Installs a capture with {@code categories} set to {@code level} as /admin/logging sets them (e.g.
   * {@code org.jboss.logmanager.Level.DEBUG}); closing it puts their levels back.
   */
  public static LogCapture at(Level level, String... categories) {
    var capture = install();
    for (var category : categories) {
      var logger = Logger.getLogger(category);
      capture.levelsBefore.put(logger, logger.getLevel());
      logger.setLevel(level);
    }
    return capture;
  }

  @Override
  public void publish(LogRecord record) {
    var text = new StringBuilder(record.getLoggerName() == null ? "" : record.getLoggerName()).append(' ')
      .append(record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage());
    if (record.getThrown() != null) {
      var trace = new StringWriter();
      record.getThrown().printStackTrace(new PrintWriter(trace));
      text.append('\n').append(trace);
    }
    lines.add(text.toString());
  }

  public List<String> lines() {
    return List.copyOf(lines);
  }

  @Override
  public void flush() {
  }

  @Override
  public void close() {
    levelsBefore.forEach(Logger::setLevel);
    Logger.getLogger("").removeHandler(this);
    Logger.getLogger(TRANSACTION).removeHandler(this);
  }
}
