package org.folio.sidecar.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * Bytes on a socket, as an attacker or a broken client sends them: no client library that would fix the framing
 * on the way. Every read is bounded by a timeout, so a connection the sidecar keeps open shows as "open".
 */
public final class RawHttp {

  private RawHttp() {
  }

  /** What came back: everything read until the sidecar closed the connection or went quiet. */
  public record Exchange(String received, boolean closed) {

    public int status() {
      if (!received.startsWith("HTTP/1.")) {
        return -1;
      }
      return Integer.parseInt(received.substring(9, 12));
    }

    /** How many answers (status lines) came back on the connection. */
    public int answers() {
      int count = 0;
      for (int at = received.indexOf("HTTP/1."); at >= 0; at = received.indexOf("HTTP/1.", at + 1)) {
        count++;
      }
      return count;
    }
  }

  /**
   * A caller that asks for {@code path} as tenant alpha over HTTP/1.1 and never reads: a 4-KiB receive window, so
   * the relay to it pauses once the kernel's buffers are full. {@code headerLines} ("name: value") go with the
   * request. The caller closes it.
   */
  public static Socket parkedReader(int port, String path, String... headerLines) throws IOException {
    var socket = new Socket();
    socket.setReceiveBufferSize(4096);
    socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    var head = new StringBuilder("GET ").append(path).append(" HTTP/1.1\r\nHost: x\r\nx-okapi-tenant: alpha\r\n");
    for (var line : headerLines) {
      head.append(line).append("\r\n");
    }
    socket.getOutputStream().write(head.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
    return socket;
  }

  /** Sends {@code request} as is and reads until the connection closes or nothing arrives for {@code quietMillis}. */
  public static Exchange send(int port, String request, int quietMillis) {
    return send(port, request, quietMillis, quietMillis);
  }

  /**
   * As {@link #send(int, String, int)}, but waits up to {@code answerMillis} for the first byte (a busy machine
   * may take long to answer) and {@code quietMillis} after each later one.
   */
  public static Exchange send(int port, String request, int answerMillis, int quietMillis) {
    try (var socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(answerMillis);
      socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
      socket.getOutputStream().flush();
      var received = new ByteArrayOutputStream();
      var buffer = new byte[8192];
      boolean closed = false;
      try {
        for (int read; (read = socket.getInputStream().read(buffer)) >= 0;) {
          received.write(buffer, 0, read);
          socket.setSoTimeout(quietMillis);
        }
        closed = true;
      } catch (SocketTimeoutException quiet) {
        // still open
      } catch (IOException reset) {
        closed = true;
      }
      return new Exchange(received.toString(StandardCharsets.ISO_8859_1), closed);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
