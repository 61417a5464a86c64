package org.folio.sidecar.testkit;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * One h2c connection with prior knowledge, spoken as a hostile client speaks it: frames written by hand (HPACK
 * literals without indexing or Huffman coding, so any byte can go into a name or value), frames read raw.
 */
public final class H2 implements AutoCloseable {

  public static final int DATA = 0x0;
  public static final int HEADERS = 0x1;
  public static final int RST_STREAM = 0x3;
  public static final int SETTINGS = 0x4;
  public static final int GOAWAY = 0x7;
  public static final int CONTINUATION = 0x9;
  public static final int END_STREAM = 0x1;
  public static final int END_HEADERS = 0x4;
  public static final int ACK = 0x1;

  private final Socket socket;
  private final OutputStream out;
  private final DataInputStream in;
  private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
  private boolean ended;
  private boolean silent;
  private Frame settings = new Frame(SETTINGS, 0, 0, new byte[0]);

  private H2(Socket socket) throws IOException {
    this.socket = socket;
    this.out = socket.getOutputStream();
    this.in = new DataInputStream(socket.getInputStream());
  }

  /** Opens the connection and exchanges settings; the server's first SETTINGS frame is kept. */
  public static H2 open(int port) throws IOException {
    var socket = new Socket(InetAddress.getLoopbackAddress(), port);
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

  public Frame settings() {
    return settings;
  }

  /** A request's header block to the sidecar's test module: tenant alpha, {@code padding} in a header if given. */
  public static byte[] request(String method, String path, String padding) {
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

  /** A header block of {@code fields} (name, value, name, value...), in that order, exactly as given. */
  public static byte[] block(String... fields) {
    var block = new ByteArrayOutputStream();
    for (int i = 0; i < fields.length; i += 2) {
      block.writeBytes(literal(fields[i], fields[i + 1]));
    }
    return block.toByteArray();
  }

  /** An HPACK literal header field without indexing, new name, no Huffman coding; chars are taken as bytes. */
  public static byte[] literal(String name, String value) {
    var field = new ByteArrayOutputStream();
    field.write(0);
    string(field, name);
    string(field, value);
    return field.toByteArray();
  }

  private static void string(ByteArrayOutputStream field, String text) {
    var bytes = text.getBytes(StandardCharsets.ISO_8859_1);
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

  public void frame(int type, int flags, int stream, byte[] payload) {
    int length = payload.length;
    var header = ByteBuffer.allocate(9);
    header.put((byte) (length >>> 16)).put((byte) (length >>> 8)).put((byte) length);
    header.put((byte) type).put((byte) flags).putInt(stream);
    pending.writeBytes(header.array());
    pending.writeBytes(payload);
  }

  public void flush() {
    try {
      pending.writeTo(out);
      out.flush();
    } catch (IOException e) {
      ended = true;
    }
    pending.reset();
  }

  /** Whether the server has not yet ended the connection (checked without waiting). */
  public boolean alive() throws IOException {
    while (!ended && in.available() > 0) {
      var frame = read();
      if (frame == null || frame.type == GOAWAY) {
        ended = true;
      }
    }
    return !ended;
  }

  /** Whether a read waited the whole read timeout for nothing: the server neither answered nor closed. */
  public boolean silent() {
    return silent;
  }

  /** Whether a GOAWAY or the connection's end has been read. */
  public boolean ended() {
    return ended;
  }

  /**
   * Reads on until GOAWAY or the end of the connection: GOAWAY's error code, or -1 for a close without one (or
   * after a GOAWAY already read); nothing within the read timeout fails the test.
   */
  public int goAway() throws IOException {
    var frame = ended ? null : nextOrEnd(candidate -> candidate.type == GOAWAY);
    return frame == null ? -1 : frame.errorCode(4);
  }

  /**
   * How the server ended {@code stream}: its response HEADERS, its RST_STREAM, a GOAWAY, or null when the
   * connection closed (or, {@link #silent}, nothing came within the read timeout) first.
   */
  public @Nullable Frame answer(int stream) throws IOException {
    var frame = nextOrEnd(candidate -> candidate.stream == stream
      && (candidate.type == HEADERS || candidate.type == RST_STREAM) || candidate.type == GOAWAY);
    if (frame != null && frame.type == GOAWAY) {
      ended = true;
    }
    return frame;
  }

  public Frame next(Predicate<Frame> wanted) throws IOException {
    var frame = nextOrEnd(wanted);
    if (frame == null) {
      throw new AssertionError("the connection ended first");
    }
    return frame;
  }

  /** The next frame {@code wanted}, or null when the connection ends first. */
  public @Nullable Frame nextOrEnd(Predicate<Frame> wanted) throws IOException {
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
    } catch (SocketTimeoutException e) {
      silent = true;
      return null;
    } catch (EOFException | SocketException e) {
      return null;
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }

  /** One frame as read. */
  public record Frame(int type, int flags, int stream, byte[] payload) {

    public int setting(int id) {
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
    public String firstHeaderValue() {
      // a PADDED frame starts with the pad length, a PRIORITY one (Vert.x sends them) with 5 bytes of priority
      int start = ((flags & 0x8) != 0 ? 1 : 0) + ((flags & 0x20) != 0 ? 5 : 0);
      int first = payload[start] & 0xff;
      if ((first & 0x80) != 0) {
        return switch (first & 0x7f) {
          case 8 -> "200";
          case 9 -> "204";
          case 12 -> "400";
          case 13 -> "404";
          case 14 -> "500";
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

    public int errorCode(int offset) {
      return ByteBuffer.wrap(payload, offset, 4).getInt();
    }
  }
}
