package org.folio.sidecar.edge;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jspecify.annotations.Nullable;

/**
 * Issue 27 item 2: the HTTP/2 limits of the ingress port, spoken as a hostile client speaks them: h2c with prior
 * knowledge over a raw socket (HTTP/2 is on by default on the plain port), frames written by hand. Each abuse ends
 * in a frame or a close the client sees, and an ordinary HTTP/1.1 request on another connection is still
 * answered 200.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class Http2LimitsTest {

  private static final int HEADERS = 0x1;
  private static final int RST_STREAM = 0x3;
  private static final int SETTINGS = 0x4;
  private static final int GOAWAY = 0x7;
  private static final int CONTINUATION = 0x9;
  private static final int END_STREAM = 0x1;
  private static final int END_HEADERS = 0x4;
  private static final int ACK = 0x1;
  private static final int NO_ERROR = 0x0;
  private static final int REFUSED_STREAM = 0x7;
  private static final int ENHANCE_YOUR_CALM = 0xb;
  private static final int SETTINGS_MAX_CONCURRENT_STREAMS = 0x3;
  private static final int SETTINGS_MAX_HEADER_LIST_SIZE = 0x6;

  @BeforeEach
  void reset() {
    TestPlatform.get().resetModule();
  }

  @Test
  void anOrdinaryRequestOverH2cIsAnswered() throws IOException {
    // the control: the hand-written frames below are a request the sidecar serves
    try (var h2 = H2.open()) {
      h2.frame(HEADERS, END_HEADERS | END_STREAM, 1, h2.request("GET", "/public/info", ""));
      h2.flush();
      var answer = h2.next(frame -> frame.type == HEADERS && frame.stream == 1 || frame.type == GOAWAY);
      assertThat(answer.type).isEqualTo(HEADERS);
      assertThat(answer.firstHeaderValue()).isEqualTo("200");
    }
  }

  @Test
  void settingsAdvertiseTheConfiguredLimitsAndAStreamOverTheCapIsRefused() throws IOException {
    try (var h2 = H2.open()) {
      var settings = h2.settings;
      assertThat(settings.setting(SETTINGS_MAX_CONCURRENT_STREAMS)).isEqualTo(100);
      assertThat(settings.setting(SETTINGS_MAX_HEADER_LIST_SIZE)).isEqualTo(20480);
      // 101 POSTs whose bodies never come: each stream stays open, the 101st is one too many
      for (int i = 0; i < 101; i++) {
        h2.frame(HEADERS, END_HEADERS, 1 + 2 * i, h2.request("POST", "/items", ""));
      }
      h2.flush();
      var refused = h2.next(frame -> frame.type == RST_STREAM || frame.type == GOAWAY);
      assertThat(refused.type).isEqualTo(RST_STREAM);
      assertThat(refused.stream).isEqualTo(1 + 2 * 100);
      assertThat(refused.errorCode(0)).isEqualTo(REFUSED_STREAM);
    }
    ordinaryRequestIsAnswered();
  }

  @Test
  void rapidResetFloodEndsTheConnection() throws IOException {
    // CVE-2023-44487: streams opened and reset at once never count against the concurrent-streams cap
    try (var h2 = H2.open()) {
      for (int i = 0; i < 1000 && h2.alive(); i++) {
        int stream = 1 + 2 * i;
        h2.frame(HEADERS, END_HEADERS | END_STREAM, stream, h2.request("GET", "/public/info", ""));
        h2.frame(RST_STREAM, 0, stream, new byte[]{0, 0, 0, 8});
        h2.flush();
      }
      assertThat(h2.goAway()).as("GOAWAY ENHANCE_YOUR_CALM, or closed after it").isIn(ENHANCE_YOUR_CALM, -1);
    }
    ordinaryRequestIsAnswered();
  }

  @Test
  void continuationFloodEndsTheConnection() throws IOException {
    // CVE-2024-27316: a header block that never ends, each CONTINUATION adding to it
    try (var h2 = H2.open()) {
      h2.frame(HEADERS, 0, 1, h2.request("GET", "/public/info", ""));
      var filler = H2.literal("x-filler", "a".repeat(1000));
      for (int i = 0; i < 10_000 && h2.alive(); i++) {
        h2.frame(CONTINUATION, 0, 1, filler);
        h2.flush();
      }
      assertThat(h2.goAway()).as("GOAWAY with an error, or a closed connection").isNotEqualTo(NO_ERROR);
    }
    ordinaryRequestIsAnswered();
  }

  @Test
  void headerListOverTheLimitIsRefused() throws IOException {
    try (var h2 = H2.open()) {
      h2.frame(HEADERS, END_HEADERS | END_STREAM, 1, h2.request("GET", "/public/info", "a".repeat(30_000)));
      h2.flush();
      // either the stream is refused (RST_STREAM, or a 431 HEADERS answer) or the connection ends
      var answer = h2.nextOrEnd(frame -> frame.type == RST_STREAM || frame.type == GOAWAY
        || frame.type == HEADERS && frame.stream == 1);
      if (answer != null && answer.type == HEADERS) {
        assertThat(answer.firstHeaderValue()).as(":status").isIn("431", "400");
      }
    }
    ordinaryRequestIsAnswered();
  }

  private static void ordinaryRequestIsAnswered() {
    given().header("x-okapi-tenant", "alpha").get("/public/info").then().statusCode(200);
  }

  private record Frame(int type, int flags, int stream, byte[] payload) {

    int setting(int id) {
      var buffer = ByteBuffer.wrap(payload);
      while (buffer.remaining() >= 6) {
        int key = buffer.getShort() & 0xffff;
        int value = buffer.getInt();
        if (key == id) {
          return value;
        }
      }
      return -1;
    }

    /**
     * The value of the first field of a HEADERS frame as Netty encodes a response's {@code :status}: indexed from
     * the static table, or a literal (Netty codes strings this short without Huffman).
     */
    String firstHeaderValue() {
      // a PADDED frame starts with the pad length, a PRIORITY one (Vert.x sends them) with 5 bytes of priority
      int start = ((flags & 0x8) != 0 ? 1 : 0) + ((flags & 0x20) != 0 ? 5 : 0);
      int first = payload[start] & 0xff;
      if ((first & 0x80) != 0) {
        return switch (first & 0x7f) {
          case 8 -> "200";
          case 12 -> "400";
          case 13 -> "404";
          default -> "static " + (first & 0x7f);
        };
      }
      int at = start + 1;
      int index = (first & 0xc0) == 0x40 ? first & 0x3f : first & 0x0f;
      if (index == 0) {
        at += 1 + payload[at];
      }
      return new String(payload, at + 1, payload[at], StandardCharsets.US_ASCII);
    }

    int errorCode(int offset) {
      return ByteBuffer.wrap(payload, offset, 4).getInt();
    }
  }

  /** One h2c connection with prior knowledge: frames out, frames in, and whether the server has ended it. */
  private static final class H2 implements AutoCloseable {

    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private boolean ended;
    private Frame settings = new Frame(SETTINGS, 0, 0, new byte[0]);

    private H2(Socket socket) throws IOException {
      this.socket = socket;
      this.out = socket.getOutputStream();
      this.in = new DataInputStream(socket.getInputStream());
    }

    static H2 open() throws IOException {
      var socket = new Socket(InetAddress.getLoopbackAddress(), RestAssured.port);
      socket.setSoTimeout(10_000);
      var h2 = new H2(socket);
      h2.out.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      h2.frame(SETTINGS, 0, 0, new byte[0]);
      h2.flush();
      // the server applies its own settings (the streams cap among them) once the client acknowledges them
      h2.settings = h2.next(frame -> frame.type == SETTINGS && (frame.flags & ACK) == 0);
      h2.frame(SETTINGS, ACK, 0, new byte[0]);
      h2.flush();
      return h2;
    }

    byte[] request(String method, String path, String padding) {
      var block = new ByteArrayOutputStream();
      block.writeBytes(literal(":method", method));
      block.writeBytes(literal(":scheme", "http"));
      block.writeBytes(literal(":path", path));
      block.writeBytes(literal(":authority", "localhost"));
      block.writeBytes(literal("x-okapi-tenant", "alpha"));
      if (!padding.isEmpty()) {
        block.writeBytes(literal("x-padding", padding));
      }
      return block.toByteArray();
    }

    /** An HPACK literal header field without indexing, new name, no Huffman coding. */
    static byte[] literal(String name, String value) {
      var field = new ByteArrayOutputStream();
      field.write(0);
      string(field, name);
      string(field, value);
      return field.toByteArray();
    }

    private static void string(ByteArrayOutputStream field, String text) {
      var bytes = text.getBytes(StandardCharsets.US_ASCII);
      int length = bytes.length;
      if (length < 127) {
        field.write(length);
      } else {
        field.write(127);
        length -= 127;
        while (length >= 128) {
          field.write((length & 0x7f) | 0x80);
          length >>>= 7;
        }
        field.write(length);
      }
      field.writeBytes(bytes);
    }

    void frame(int type, int flags, int stream, byte[] payload) {
      int length = payload.length;
      var header = ByteBuffer.allocate(9);
      header.put((byte) (length >>> 16)).put((byte) (length >>> 8)).put((byte) length);
      header.put((byte) type).put((byte) flags).putInt(stream);
      pending.writeBytes(header.array());
      pending.writeBytes(payload);
    }

    void flush() {
      try {
        pending.writeTo(out);
        out.flush();
      } catch (IOException e) {
        ended = true;
      }
      pending.reset();
    }

    /** Whether the server has not yet ended the connection (checked without waiting). */
    boolean alive() throws IOException {
      while (!ended && in.available() > 0) {
        var frame = read();
        if (frame == null || frame.type == GOAWAY) {
          ended = true;
        }
      }
      return !ended;
    }

    /**
     * Reads on until GOAWAY or the end of the connection: GOAWAY's error code, or -1 for a close without one (or
     * after a GOAWAY already read); nothing within the read timeout fails the test.
     */
    int goAway() throws IOException {
      var frame = ended ? null : nextOrEnd(candidate -> candidate.type == GOAWAY);
      return frame == null ? -1 : frame.errorCode(4);
    }

    Frame next(Predicate<Frame> wanted) throws IOException {
      var frame = nextOrEnd(wanted);
      assertThat(frame).as("the connection ended first").isNotNull();
      return frame;
    }

    /** The next frame {@code wanted}, or null when the connection ends first. */
    @Nullable
    Frame nextOrEnd(Predicate<Frame> wanted) throws IOException {
      Frame frame;
      while ((frame = read()) != null) {
        if (wanted.test(frame)) {
          return frame;
        }
      }
      ended = true;
      return null;
    }

    private @Nullable Frame read() throws IOException {
      try {
        var header = new byte[9];
        in.readFully(header);
        int length = (header[0] & 0xff) << 16 | (header[1] & 0xff) << 8 | header[2] & 0xff;
        var payload = new byte[length];
        in.readFully(payload);
        return new Frame(header[3] & 0xff, header[4] & 0xff, ByteBuffer.wrap(header, 5, 4).getInt() & 0x7fffffff,
          payload);
      } catch (EOFException | SocketException e) {
        return null;
      }
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
