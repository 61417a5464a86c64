package org.folio.sidecar.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.RawHttp;
import org.junit.jupiter.api.Test;

/**
 * Issue 43, memory a caller can pin: a caller that asks for a large answer and reads none of it holds, until the
 * send timeout, what the buffers between the module and it take. With the default SIDECAR_SEND_BUFFER_SIZE that is
 * 0.69 MB per relay here; left to the kernel's autotuning ({@code SIDECAR_SEND_BUFFER_SIZE=0}) 3.19 MB, the caller's
 * connection alone 2.8 MB of it. The module here counts what it wrote, with a send buffer of its own as small as
 * the kernel allows, so the count is the sidecar's share.
 */
@QuarkusTest
@WithTestResource(SendBufferTest.CountingModuleResource.class)
class SendBufferTest {

  private static final int BIG = 8 * 1024 * 1024;
  private static final long MOST_PINNED = 1_500_000;

  @Test
  void aCallerThatReadsNothingPinsLittleOfThePodsMemory() throws IOException {
    var module = CountingModuleResource.module;
    try (var reader = RawHttp.parkedReader(RestAssured.port, "/public/info?size=big")) {
      // the relay stalls once every buffer between is full: the count stops growing (a later look only sees more)
      var last = new AtomicLong(-1);
      await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> {
        long now = module.written.get();
        return now > 0 && now == last.getAndSet(now);
      });
      assertThat(module.written.get()).as("bytes the module got rid of before the relay stalled")
        .isLessThan(MOST_PINNED);
    }
  }

  /** The platform's configuration, with the module replaced by one that counts the bytes of its big answers. */
  public static class CountingModuleResource extends SidecarTestResource {

    static CountingModule module;

    @Override
    public Map<String, String> start() {
      var config = new HashMap<>(super.start());
      module = new CountingModule();
      config.put("module.url", "http://127.0.0.1:" + module.server.getLocalPort());
      return config;
    }

    @Override
    public void stop() {
      module.close();
    }
  }

  /** A blocking HTTP/1.1 module: {@code ?size=big} is an answer of {@link #BIG} bytes, anything else {@code {}}. */
  static final class CountingModule implements AutoCloseable {

    final AtomicLong written = new AtomicLong();
    final ServerSocket server;

    CountingModule() {
      try {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
      Thread.ofVirtual().start(() -> {
        while (!server.isClosed()) {
          try {
            var socket = server.accept();
            socket.setSendBufferSize(1);
            Thread.ofVirtual().start(() -> serve(socket));
          } catch (IOException closed) {
            return;
          }
        }
      });
    }

    private void serve(Socket socket) {
      try (socket; var in = socket.getInputStream(); var out = socket.getOutputStream()) {
        String head;
        while ((head = readHead(in)) != null) {
          if (head.contains("size=big")) {
            answerBig(out);
          } else {
            out.write("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}"
              .getBytes(StandardCharsets.US_ASCII));
          }
        }
      } catch (IOException gone) {
        // the sidecar closed or reset the connection
      }
    }

    private void answerBig(OutputStream out) throws IOException {
      out.write(("HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\ncontent-length: " + BIG + "\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII));
      var chunk = new byte[4096];
      for (int left = BIG; left > 0; left -= chunk.length) {
        out.write(chunk);
        written.addAndGet(chunk.length);
      }
    }

    private static String readHead(InputStream in) throws IOException {
      var head = new StringBuilder();
      int b;
      while ((b = in.read()) >= 0) {
        head.append((char) b);
        if (head.length() >= 4 && head.lastIndexOf("\r\n\r\n") == head.length() - 4) {
          return head.toString();
        }
      }
      return null;
    }

    @Override
    public void close() {
      try {
        server.close();
      } catch (IOException ignored) {
        // closing
      }
    }
  }
}
