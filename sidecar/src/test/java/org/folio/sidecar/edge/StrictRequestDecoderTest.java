package org.folio.sidecar.edge;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.http.HttpServerOptions;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A folded header line is found however the head arrives in TCP segments: Netty consumes a head line by line, so
 * the fold may start the next read. Each head is fed in pieces of {@code size} bytes.
 */
class StrictRequestDecoderTest {

  private static final String FOLDED = "POST /_/tenant HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\r\n chunked\r\n\r\n"
    + "0\r\n\r\n";
  private static final String PLAIN = "\r\nPOST /_/tenant HTTP/1.1\r\nHost: x\r\nX-Note: a b\r\n"
    + "Transfer-Encoding: chunked\r\n\r\n1\r\n \r\n0\r\n\r\n";

  @ParameterizedTest(name = "pieces of {0} bytes")
  @ValueSource(ints = {1, 2, 3, 7, 20, 36, 1000})
  void aFoldIsRefusedWhereverTheReadsSplitTheHead(int size) {
    assertThat(decode(FOLDED, size).decoderResult().isFailure()).isTrue();
  }

  @ParameterizedTest(name = "pieces of {0} bytes")
  @ValueSource(ints = {1, 2, 3, 7, 20, 36, 1000})
  void spacesInValuesAndBodiesAreNoFold(int size) {
    // a space inside a value, a body line starting with a space, a blank line before the request line
    assertThat(decode(PLAIN, size).decoderResult().isSuccess()).isTrue();
  }

  private static HttpRequest decode(String head, int size) {
    var channel = new EmbeddedChannel(new StrictRequestDecoder(new HttpServerOptions(), TimeUnit.SECONDS.toNanos(60),
      TimeUnit.SECONDS.toNanos(60)));
    try {
      var bytes = head.getBytes(StandardCharsets.ISO_8859_1);
      for (int at = 0; at < bytes.length; at += size) {
        channel.writeInbound(Unpooled.wrappedBuffer(bytes, at, Math.min(size, bytes.length - at)));
      }
      HttpRequest request = null;
      for (Object message; (message = channel.readInbound()) != null;) {
        if (message instanceof HttpRequest decoded && request == null) {
          request = decoded;
        } else {
          ReferenceCountUtil.release(message);
        }
      }
      assertThat(request).as("a request decoded").isNotNull();
      return request;
    } finally {
      channel.finishAndReleaseAll();
    }
  }
}
