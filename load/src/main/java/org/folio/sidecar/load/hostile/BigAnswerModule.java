package org.folio.sidecar.load.hostile;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The module behind a sidecar of the hostile run: {@code GET /public/info?size=big} is an answer of {@code size}
 * bytes written as fast as the sidecar takes it, anything else a small JSON answer at once. Non-blocking, so a
 * relay the sidecar leaves parked holds no worker of the module's and the other caller meets the sidecar's
 * limits, not the stub's (WireMock's 64 threads would be the bound otherwise). It remembers when it last wrote a
 * big answer's chunk: a parked relay's send deadline counts from its last byte, which the module writes last (the
 * sidecar stops reading it once the caller stops reading, and the module stops once the buffers between are full);
 * {@code lastWrite} holds that moment in {@link System#nanoTime()}.
 */
record BigAnswerModule(HttpServer server, AtomicLong lastWrite) {

  private static final Buffer CHUNK = Buffer.buffer(new byte[64 * 1024]);
  private static final Buffer SMALL = Buffer.buffer("{\"module\":\"mod-items\"}");

  static BigAnswerModule start(Vertx vertx, int size) throws Exception {
    var lastWrite = new AtomicLong(System.nanoTime());
    var server = vertx.createHttpServer().requestHandler(request -> {
      var response = request.response();
      if ("/public/info".equals(request.path()) && "big".equals(request.getParam("size"))) {
        response.putHeader("content-type", "application/octet-stream").putHeader("content-length",
          String.valueOf(size));
        write(response, size, lastWrite);
      } else {
        response.putHeader("content-type", "application/json").end(SMALL);
      }
    });
    return new BigAnswerModule(server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture()
      .get(10, TimeUnit.SECONDS), lastWrite);
  }

  /** Writes {@code left} bytes in chunks, waiting for the sidecar to take them whenever its queue is full. */
  private static void write(HttpServerResponse response, int left, AtomicLong lastWrite) {
    int remaining = left;
    while (remaining > 0 && !response.writeQueueFull()) {
      if (response.closed()) {
        return;
      }
      lastWrite.set(System.nanoTime());
      int length = Math.min(remaining, CHUNK.length());
      remaining -= length;
      var unused = remaining == 0 ? response.end(CHUNK.slice(0, length)) : response.write(CHUNK.slice(0, length));
    }
    if (remaining > 0) {
      int rest = remaining;
      response.drainHandler(ignored -> write(response, rest, lastWrite));
    }
  }

  String url() {
    return "http://127.0.0.1:" + server.actualPort();
  }
}
