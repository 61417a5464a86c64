package org.folio.sidecar.forward;

import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.streams.WriteStream;

/**
 * The caller's side of a relay. A module's body can still be arriving when the caller's response is over (the
 * caller closed the connection, an error answer went out first): Vert.x's response throws on any use then, and the
 * throw escapes the pipe as an uncaught exception with a stack trace while the module's connection stays half read.
 * Here such a write fails instead, so the pipe stops and the relay resets the module's request.
 */
final class CallerStream implements WriteStream<Buffer> {

  private final HttpServerResponse response;

  CallerStream(HttpServerResponse response) {
    this.response = response;
  }

  private boolean gone() {
    return response.ended() || response.closed();
  }

  private static Future<Void> goneFailure() {
    return Future.failedFuture("the caller's response is over");
  }

  @Override
  public WriteStream<Buffer> exceptionHandler(Handler<Throwable> handler) {
    response.exceptionHandler(handler);
    return this;
  }

  @Override
  public Future<Void> write(Buffer data) {
    return gone() ? goneFailure() : response.write(data);
  }

  @Override
  public void write(Buffer data, Handler<AsyncResult<Void>> handler) {
    if (gone()) {
      handler.handle(goneFailure());
    } else {
      response.write(data, handler);
    }
  }

  @Override
  public Future<Void> end() {
    return gone() ? goneFailure() : response.end();
  }

  @Override
  public void end(Handler<AsyncResult<Void>> handler) {
    if (gone()) {
      handler.handle(goneFailure());
    } else {
      response.end(handler);
    }
  }

  @Override
  public WriteStream<Buffer> setWriteQueueMaxSize(int maxSize) {
    response.setWriteQueueMaxSize(maxSize);
    return this;
  }

  @Override
  public boolean writeQueueFull() {
    return !gone() && response.writeQueueFull();
  }

  @Override
  public WriteStream<Buffer> drainHandler(Handler<Void> handler) {
    if (!gone()) {
      response.drainHandler(handler);
    }
    return this;
  }
}
