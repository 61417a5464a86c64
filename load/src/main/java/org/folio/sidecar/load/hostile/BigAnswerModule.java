package org.folio.sidecar.load.hostile;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;
import java.util.concurrent.TimeUnit;

/**
 * The module behind a sidecar of the hostile run: {@code GET /public/info?size=big} is an answer of {@code size}
 * bytes written as fast as the sidecar takes it, anything else a small JSON answer at once. Non-blocking, so a
 * relay the sidecar leaves parked holds no worker of the module's and the other caller meets the sidecar's
 * limits, not the stub's (WireMock's 64 threads would be the bound otherwise).
 */
record BigAnswerModule(HttpServer server) {

  private static final Buffer CHUNK = Buffer.buffer(new byte[64 * 1024]);
  private static final Buffer SMALL = Buffer.buffer("{\"module\":\"mod-items\"}");

  static BigAnswerModule start(Vertx vertx, int size) throws Exception {
    var server = vertx.createHttpServer().requestHandler(request -> {
      var response = request.response();
      if ("/public/info".equals(request.path()) && "big".equals(request.getParam("size"))) {
        response.putHeader("content-type", "application/octet-stream").putHeader("content-length",
          String.valueOf(size));
        write(response, size);
      } else {
        response.putHeader("content-type", "application/json").end(SMALL);
      }
    });
    return new BigAnswerModule(server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture()
      .get(10, TimeUnit.SECONDS));
  }

  /** Writes {@code left} bytes in chunks, waiting for the sidecar to take them whenever its queue is full. */
  private static void write(HttpServerResponse response, int left) {
    int remaining = left;
    while (remaining > 0 && !response.writeQueueFull()) {
      if (response.closed()) {
        return;
      }
      int length = Math.min(remaining, CHUNK.length());
      remaining -= length;
      var unused = remaining == 0 ? response.end(CHUNK.slice(0, length)) : response.write(CHUNK.slice(0, length));
    }
    if (remaining > 0) {
      int rest = remaining;
      response.drainHandler(ignored -> write(response, rest));
    }
  }

  String url() {
    return "http://127.0.0.1:" + server.actualPort();
  }
}
