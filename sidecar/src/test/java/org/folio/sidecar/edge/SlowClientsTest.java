package org.folio.sidecar.edge;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.Test;

/**
 * Issue 27 item 2: slowloris. With a request-head deadline of 1 s (60 s by default), a thousand connections that
 * each sent half a request head, and one that trickles its head a byte at a time, are all closed by the
 * sidecar, none before the deadline, while ordinary requests on other connections keep being answered. Before the
 * deadline existed they stayed open for Quarkus' 30-minute idle timeout; the slack allowed here (a minute) keeps that
 * difference while a busy machine may take seconds to accept, time out and close thousands of connections.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, initArgs = {
  @ResourceArg(name = "edge.request-head-timeout", value = "1s")})
class SlowClientsTest {

  private static final int SLOW_CONNECTIONS = 3000;
  private static final long DEADLINE_MILLIS = 1000;
  private static final long SLACK_MILLIS = 60_000;
  private static final byte[] HALF_HEAD = "GET /public/info HTTP/1.1\r\nHost: x\r\nx-okapi-tenant: al"
    .getBytes(StandardCharsets.US_ASCII);

  @Test
  void halfSentHeadsAreClosedWithinTheDeadlineWhileOthersAreServed() throws IOException {
    TestPlatform.get().resetModule();
    var slow = new ArrayList<Socket>();
    try {
      for (int i = 0; i < SLOW_CONNECTIONS; i++) {
        var socket = new Socket(InetAddress.getLoopbackAddress(), RestAssured.port);
        socket.getOutputStream().write(HALF_HEAD);
        slow.add(socket);
      }
      long opened = System.nanoTime();
      for (int i = 0; i < 20; i++) {
        given().header("x-okapi-tenant", "alpha").get("/public/info").then().statusCode(200);
      }

      assertThat(closedBy(slow, opened + (DEADLINE_MILLIS + SLACK_MILLIS) * 1_000_000)).isEqualTo(SLOW_CONNECTIONS);
    } finally {
      for (var socket : slow) {
        socket.close();
      }
    }
  }

  @Test
  void aHeadTrickledByteByByteIsClosedAtTheDeadline() throws IOException {
    // before the connection: the deadline counts from when the sidecar accepts it
    long started = System.nanoTime();
    try (var socket = new Socket(InetAddress.getLoopbackAddress(), RestAssured.port)) {
      socket.setSoTimeout(250);
      var answered = new StringBuilder();
      long elapsedMillis = 0;
      boolean closed = false;
      // a byte every 250 ms never leaves the connection idle; only the head deadline can end it. After the half
      // head, the header value grows by a letter at a time, so the head stays incomplete however long this takes
      for (int i = 0; !closed && elapsedMillis < DEADLINE_MILLIS + SLACK_MILLIS; i++) {
        try {
          socket.getOutputStream().write(i < HALF_HEAD.length ? HALF_HEAD[i] : 'a');
          int read = socket.getInputStream().read();
          closed = read < 0;
          if (read >= 0) {
            answered.append((char) read);
          }
        } catch (SocketTimeoutException stillOpen) {
          // the next byte
        } catch (IOException reset) {
          closed = true;
        }
        elapsedMillis = (System.nanoTime() - started) / 1_000_000;
      }
      assertThat(answered).as("what the sidecar wrote to a half-sent head").isEmpty();
      assertThat(closed).as("closed within %d ms", elapsedMillis).isTrue();
      assertThat(elapsedMillis).isGreaterThanOrEqualTo(DEADLINE_MILLIS);
    }
  }

  /** How many of the sockets the sidecar closed before {@code deadlineNanos}; each read waits at most until then. */
  private static int closedBy(List<Socket> sockets, long deadlineNanos) throws IOException {
    int closed = 0;
    for (var socket : sockets) {
      long left = (deadlineNanos - System.nanoTime()) / 1_000_000;
      if (left <= 0) {
        break;
      }
      socket.setSoTimeout((int) left);
      try {
        if (socket.getInputStream().read() < 0) {
          closed++;
        }
      } catch (SocketTimeoutException open) {
        break;
      } catch (IOException reset) {
        closed++;
      }
    }
    return closed;
  }
}
