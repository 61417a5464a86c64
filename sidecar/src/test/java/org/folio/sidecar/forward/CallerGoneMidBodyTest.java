package org.folio.sidecar.forward;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.folio.sidecar.support.LogCapture;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.support.Waits;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A caller that goes away while the module's body is still coming (a client's timeout, a closed tab): the rest of
 * the body has nowhere to go. The sidecar drops it and the module's connection with it, logs no stack trace, and
 * serves the next request; before, each such body logged an uncaught "Response has already been written" with its
 * stack trace, and a reset logged "Stream reset" at ERROR.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class CallerGoneMidBodyTest {

  private static final int CALLERS = 5;

  @AfterEach
  void resetModule() {
    TestPlatform.get().resetModule();
  }

  @Test
  void aCallerGoneMidBodyCostsNoStackTraceAndNoConnection() throws IOException {
    var platform = TestPlatform.get();
    platform.module().stubFor(get(urlPathEqualTo("/public/info")).withQueryParam("v", equalTo("dribble"))
      .willReturn(aResponse().withStatus(200).withHeader("content-type", "text/plain")
        .withBody("x".repeat(64 * 1024)).withChunkedDribbleDelay(40, 2_000)));
    try (var logs = LogCapture.install()) {
      for (int i = 0; i < CALLERS; i++) {
        readTheHeadAndLeave();
      }
      // a caller that stays reads the same dribbled body to its end: by then the others' next chunks have come
      given().header("x-okapi-tenant", "alpha").queryParam("v", "dribble").get("/public/info").then()
        .statusCode(200).body(org.hamcrest.Matchers.hasLength(64 * 1024));
      given().header("x-okapi-tenant", "alpha").get("/public/info").then().statusCode(200);

      assertThat(logs.lines()).noneMatch(line -> line.contains("Response has already been written")
        || line.contains("Uncaught exception") || line.contains("Stream reset") || line.contains("\tat "));
    }
  }

  /** Sends the request, waits for the status line and the first bytes of the body, and closes the connection. */
  private static void readTheHeadAndLeave() throws IOException {
    try (var socket = new Socket(InetAddress.getLoopbackAddress(), RestAssured.port)) {
      socket.setSoTimeout((int) Waits.STATE.toMillis());
      socket.getOutputStream().write(("GET /public/info?v=dribble HTTP/1.1\r\nHost: localhost\r\n"
        + "x-okapi-tenant: alpha\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      var head = new StringBuilder();
      var buffer = new byte[1024];
      while (!head.toString().contains("\r\n\r\n")) {
        int read = socket.getInputStream().read(buffer);
        assertThat(read).as("the answer's head").isPositive();
        head.append(new String(buffer, 0, read, StandardCharsets.ISO_8859_1));
      }
      assertThat(head.toString()).startsWith("HTTP/1.1 200");
    }
  }
}
