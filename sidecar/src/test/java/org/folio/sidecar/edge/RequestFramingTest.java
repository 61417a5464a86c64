package org.folio.sidecar.edge;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.util.stream.Stream;
import org.folio.sidecar.testkit.RawHttp;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 27 item 1: requests whose framing two parsers could read two ways (RFC 9112 sections 6.1 and 6.3) are
 * answered 400 and the connection is closed; the bytes after them are never read as a request, and
 * the module sees neither. Each vector is a request to the module's system interface (no token needed), followed
 * by a request that would reach the module if it were smuggled.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class RequestFramingTest {

  private static final String SMUGGLED = EdgeVectors.SMUGGLED;

  static Stream<EdgeVectors.Vector> vectors() {
    return EdgeVectors.smuggling().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void ambiguousFramingIsRefusedAndTheConnectionClosed(EdgeVectors.Vector vector) {
    var platform = TestPlatform.get();
    platform.resetModule();

    var exchange = RawHttp.send(RestAssured.port, vector.request(), 3000);

    assertThat(exchange.status()).as(exchange.received()).isEqualTo(400);
    assertThat(exchange.closed()).as("connection closed after " + exchange.received()).isTrue();
    assertThat(exchange.answers()).as(exchange.received()).isEqualTo(1);
    platform.module().verify(0, anyRequestedFor(urlPathEqualTo("/_/tenant")));
    platform.module().verify(0, anyRequestedFor(urlPathEqualTo("/public/info")));
  }

  /**
   * A broken chunk is found only after the head was accepted and the request set off, so there is no clean
   * answer left to give: the connection is closed, the request does not complete, nothing behind it is read.
   */
  @Test
  void aChunkSizeOverflowingALongClosesTheConnection() {
    var platform = TestPlatform.get();
    platform.resetModule();
    var request = "POST /_/tenant?v=overflow HTTP/1.1\r\nHost: x\r\nx-okapi-tenant: alpha\r\n"
      + "Transfer-Encoding: chunked\r\n\r\nfffffffffffffffffffff\r\nabcd\r\n0\r\n\r\n" + SMUGGLED;

    var exchange = RawHttp.send(RestAssured.port, request, 3000);

    assertThat(exchange.closed()).as(exchange.received()).isTrue();
    assertThat(exchange.answers()).as(exchange.received()).isZero();
    // the head may already be on its way to the module when the chunk size fails (the body streams, it is not
    // buffered), and then its body is cut off; what must never arrive is what followed the broken body
    platform.module().verify(0, anyRequestedFor(urlPathEqualTo("/public/info")));
  }

  @Test
  void chunkedRequestsAreForwardedAndKeepTheConnection() {
    var platform = TestPlatform.get();
    platform.resetModule();
    var request = "POST /_/tenant?v=chunked HTTP/1.1\r\nHost: x\r\nx-okapi-tenant: alpha\r\n"
      + "Transfer-Encoding: Chunked\r\nContent-Type: application/json\r\n\r\n2\r\n{}\r\n0\r\n\r\n"
      + "GET /public/info?second HTTP/1.1\r\nHost: x\r\nx-okapi-tenant: alpha\r\n\r\n";

    var exchange = RawHttp.send(RestAssured.port, request, 2000);

    assertThat(exchange.answers()).as(exchange.received()).isEqualTo(2);
    assertThat(exchange.status()).isEqualTo(200);
    assertThat(exchange.closed()).isFalse();
    platform.module().verify(1, postRequestedFor(urlEqualTo("/_/tenant?v=chunked")).withRequestBody(equalTo("{}")));
    platform.module().verify(1, getRequestedFor(urlEqualTo("/public/info?second")));
  }
}
