package org.folio.sidecar.forward;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.is;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.function.Consumer;
import org.folio.sidecar.support.LogCapture;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.support.Waits;
import org.folio.sidecar.testkit.TestPlatform;
import org.folio.sidecar.testkit.RawHttp;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 43 item 2: one caller holds at most SIDECAR_FORWARD_MAX_CONNECTIONS_PER_CALLER module connections (5
 * here, 100 by default); past it its requests are answered 429 in upstream's error format, and once it lets go
 * of its held answers it is served again. A caller that leaves before the module answers frees its connection then,
 * not when the module answers.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, initArgs = {
  @ResourceArg(name = "sidecar.forward-max-connections-per-caller", value = "5"),
  // long: the readers hold their connections until the test closes them, however slow the machine
  @ResourceArg(name = "sidecar.send-timeout", value = "10m")})
class ConnectionsPerCallerTest {

  private static final int CAP = 5;

  @Inject
  MeterRegistry registry;

  @Test
  void aCallerPastItsCapIs429UntilItsConnectionsAreReleased() throws IOException {
    TestPlatform.get().module().stubFor(get(urlPathEqualTo("/public/info")).withQueryParam("size", equalTo("big"))
      .willReturn(aResponse().withStatus(200).withBody(new byte[8 * 1024 * 1024])));

    try (var capture = LogCapture.install()) {
      holdTheCapThenLetGo("/public/info?size=big", refused -> refused.statusCode(429)
        .body("errors[0].type", is("TooManyRequestsException"))
        .body("errors[0].code", is("service_error")));
      // no module was asked for the refused request: its access line shows no module time
      await().atMost(Waits.STATE).untilAsserted(() -> assertThat(capture.lines())
        .anyMatch(line -> line.contains("(access) GET /public/info 429 ") && line.matches(".* module_ms=-( .*)?$")));
    }
  }

  @Test
  void callersThatLeaveBeforeTheAnswerFreeTheirConnectionsAtOnce() throws IOException {
    // the module answers after the test has ended: only the callers' leaving can free the connections
    TestPlatform.get().module().stubFor(get(urlPathEqualTo("/public/info")).withQueryParam("slow", equalTo("yes"))
      .willReturn(aResponse().withStatus(200).withFixedDelay(120_000)));

    holdTheCapThenLetGo("/public/info?slow=yes", refused -> refused.statusCode(429));
  }

  /**
   * CAP callers ask for {@code path} and never read; once they hold CAP module connections another request is
   * {@code refused}; once they close, no connection is held and another request is served 200.
   */
  private void holdTheCapThenLetGo(String path, Consumer<ValidatableResponse> refused) throws IOException {
    var readers = new ArrayList<Socket>();
    try {
      for (int i = 0; i < CAP; i++) {
        readers.add(RawHttp.parkedReader(RestAssured.port, path));
      }
      await().atMost(Duration.ofSeconds(30)).until(() -> held() == CAP);
      refused.accept(given().header("x-okapi-tenant", "alpha").get("/public/info").then());

      for (var socket : readers) {
        socket.close();
      }
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(held()).isZero());
      given().header("x-okapi-tenant", "alpha").get("/public/info").then().statusCode(200);
    } finally {
      for (var socket : readers) {
        socket.close();
      }
    }
  }

  @BeforeEach
  @AfterEach
  void resetModule() {
    TestPlatform.get().resetModule();
  }

  private double held() {
    return registry.get("sidecar.forward.connections").gauge().value();
  }
}
