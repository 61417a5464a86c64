package org.folio.sidecar.forward;

import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.streams.WriteStream;

/**
 * The receiving side of a relay, which must keep taking bytes: once its write queue is full (a caller that does
 * not read, an HTTP/2 stream whose flow-control window stays shut, a module that does not read an upload), the
 * relay pauses, and if no byte drains within the send timeout (SIDECAR_SEND_TIMEOUT, never past REQUEST_TIMEOUT)
 * {@code stalled} runs and ends both sides. Like nginx's {@code send_timeout}, it bounds each pause, not the
 * transfer: a slow reader that keeps reading is never cut, however long the body takes.
 */
final class SendDeadline implements WriteStream<Buffer> {

  private final WriteStream<Buffer> target;
  private final Vertx vertx;
  private final long timeoutMillis;
  private final Runnable stalled;
  // the relay's event loop only
  private long timer = -1;

  SendDeadline(WriteStream<Buffer> target, Vertx vertx, long timeoutMillis, Runnable stalled) {
    this.target = target;
    this.vertx = vertx;
    this.timeoutMillis = timeoutMillis;
    this.stalled = stalled;
  }

  @Override
  public WriteStream<Buffer> drainHandler(Handler<Void> handler) {
    // the pipe asks to be told of a drain only when the queue is full: the pause starts now
    cancel();
    timer = vertx.setTimer(timeoutMillis, id -> {
      timer = -1;
      stalled.run();
    });
    target.drainHandler(drained -> {
      cancel();
      handler.handle(null);
    });
    return this;
  }

  private void cancel() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
      timer = -1;
    }
  }

  @Override
  public WriteStream<Buffer> exceptionHandler(Handler<Throwable> handler) {
    target.exceptionHandler(handler);
    return this;
  }

  @Override
  public Future<Void> write(Buffer data) {
    return target.write(data);
  }

  @Override
  public void write(Buffer data, Handler<AsyncResult<Void>> handler) {
    target.write(data, handler);
  }

  @Override
  public Future<Void> end() {
    cancel();
    return target.end();
  }

  @Override
  public void end(Handler<AsyncResult<Void>> handler) {
    cancel();
    target.end(handler);
  }

  @Override
  public WriteStream<Buffer> setWriteQueueMaxSize(int maxSize) {
    target.setWriteQueueMaxSize(maxSize);
    return this;
  }

  @Override
  public boolean writeQueueFull() {
    return target.writeQueueFull();
  }
}
