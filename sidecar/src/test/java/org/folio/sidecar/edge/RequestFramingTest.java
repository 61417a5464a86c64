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
import org.folio.sidecar.support.RawHttp;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
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

  private static final String SMUGGLED = "GET /public/info?smuggled HTTP/1.1\r\nHost: x\r\nx-okapi-tenant: alpha\r\n\r\n";

  static Stream<Arguments> vectors() {
    return Stream.of(
      vector("content-length and transfer-encoding (CL.TE)",
        "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + SMUGGLED),
      vector("transfer-encoding and content-length (TE.CL)",
        "Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n5e\r\n" + SMUGGLED + "\r\n0\r\n\r\n"),
      vector("xchunked with content-length",
        "Transfer-Encoding: xchunked\r\nContent-Length: 4\r\n\r\nabcd" + SMUGGLED),
      vector("chunked, identity with content-length",
        "Transfer-Encoding: chunked, identity\r\nContent-Length: 4\r\n\r\nabcd" + SMUGGLED),
      vector("upper-case CHUNKED with content-length",
        "Transfer-Encoding: CHUNKED\r\nContent-Length: 4\r\n\r\n0\r\n\r\n" + SMUGGLED),
      vector("content-length and transfer-encoding split by bare LF",
        "Content-Length: 4\nTransfer-Encoding: chunked\n\n0\r\n\r\n" + SMUGGLED),
      vector("unknown coding xchunked", "Transfer-Encoding: xchunked\r\n\r\n0\r\n\r\n" + SMUGGLED),
      vector("chunked, identity", "Transfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n" + SMUGGLED),
      vector("two transfer-encoding lines",
        "Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n0\r\n\r\n" + SMUGGLED),
      vector("transfer-encoding with a space before the colon",
        "Transfer-Encoding : chunked\r\nContent-Length: 4\r\n\r\n0\r\n\r\n" + SMUGGLED),
      vector("transfer-encoding folded onto the next line",
        "Transfer-Encoding:\r\n chunked\r\nContent-Length: 4\r\n\r\n0\r\n\r\n" + SMUGGLED),
      vector("transfer-encoding with a vertical tab",
        "Transfer-Encoding: \u000bchunked\r\n\r\n0\r\n\r\n" + SMUGGLED),
      vector("NUL in a header value", "X-Note: a\u0000b\r\nContent-Length: 0\r\n\r\n" + SMUGGLED),
      vector("control character in a header value", "X-Note: a\u0001b\r\nContent-Length: 0\r\n\r\n" + SMUGGLED),
      vector("bare CR in a header value", "X-Note: a\rb\r\nContent-Length: 0\r\n\r\n" + SMUGGLED),
      vector("header name with a space", "X Note: b\r\nContent-Length: 0\r\n\r\n" + SMUGGLED),
      Arguments.of("transfer-encoding in HTTP/1.0", "POST /_/tenant?v=http10 HTTP/1.0\r\nHost: x\r\n"
        + "x-okapi-tenant: alpha\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + SMUGGLED));
  }

  private static Arguments vector(String name, String rest) {
    var marker = name.replaceAll("[^a-zA-Z]", "");
    return Arguments.of(name,
      "POST /_/tenant?v=" + marker + " HTTP/1.1\r\nHost: x\r\nx-okapi-tenant: alpha\r\n" + rest);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void ambiguousFramingIsRefusedAndTheConnectionClosed(String name, String request) {
    var platform = TestPlatform.get();
    platform.resetModule();

    var exchange = RawHttp.send(RestAssured.port, request, 3000);

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
