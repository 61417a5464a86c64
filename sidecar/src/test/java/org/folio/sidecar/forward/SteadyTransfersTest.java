package org.folio.sidecar.forward;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Random;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 43 item 2, the other half: the send deadline cuts a relay that stopped moving, never one that moves however
 * long it takes (upstream's MODSIDECAR-207: a 27-MB data-import upload cut off at 60 s). 100 MB each way, paced by
 * the caller in 256-KiB steps 25 ms apart, so each transfer lasts at least 10 s: twice REQUEST_TIMEOUT (5 s here)
 * and more than three send timeouts (3 s), while no pause comes near either. Both arrive whole, byte for byte.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, initArgs = {
  @ResourceArg(name = "sidecar.send-timeout", value = "3s"),
  @ResourceArg(name = "sidecar.request-timeout", value = "5000")})
class SteadyTransfersTest {

  private static final int SIZE = 100 * 1024 * 1024;
  private static final int STEP = 256 * 1024;
  private static final long PAUSE_MILLIS = 25;
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);

  private static byte[] body;
  private static String bodyDigest;

  private final TestPlatform platform = TestPlatform.get();
  private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @BeforeAll
  static void makeBody() throws NoSuchAlgorithmException {
    body = new byte[SIZE];
    new Random(43).nextBytes(body);
    bodyDigest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
  }

  @BeforeEach
  @AfterEach
  void resetModule() {
    platform.resetModule();
  }

  @Test
  void aSlowButSteadyDownloadOf100MegabytesArrivesWhole() throws Exception {
    platform.module().stubFor(get(urlEqualTo("/downloads/steady")).willReturn(aResponse().withStatus(200)
      .withHeader("content-type", "application/octet-stream").withBody(body)));
    long started = System.nanoTime();

    var response = client.send(request("/downloads/steady").GET().build(), HttpResponse.BodyHandlers.ofInputStream());
    assertThat(response.statusCode()).isEqualTo(200);
    var digest = MessageDigest.getInstance("SHA-256");
    long total = 0;
    try (var in = response.body()) {
      for (byte[] step; (step = in.readNBytes(STEP)).length > 0;) {
        digest.update(step);
        total += step.length;
        Thread.sleep(PAUSE_MILLIS); // the caller's pace: it reads on, slowly
      }
    }

    assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the transfer outlasted REQUEST_TIMEOUT")
      .isGreaterThan(REQUEST_TIMEOUT);
    assertThat(total).isEqualTo(SIZE);
    assertThat(HexFormat.of().formatHex(digest.digest())).isEqualTo(bodyDigest);
  }

  @Test
  void aSlowButSteadyUploadOf100MegabytesArrivesWhole() throws Exception {
    platform.module().stubFor(post(urlEqualTo("/uploads")).willReturn(aResponse().withStatus(200)));
    long started = System.nanoTime();

    var response = client.send(request("/uploads").header("content-type", "application/octet-stream")
      .POST(HttpRequest.BodyPublishers.ofInputStream(PacedBody::new)).build(), HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the transfer outlasted REQUEST_TIMEOUT")
      .isGreaterThan(REQUEST_TIMEOUT);
    var received = platform.module().findAll(postRequestedFor(urlEqualTo("/uploads"))).getFirst().getBody();
    assertThat(received).hasSize(SIZE);
    assertThat(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(received))).isEqualTo(bodyDigest);
  }

  private HttpRequest.Builder request(String path) {
    var token = platform.tokens().login(platform.alpha(), platform.alpha().allowed()).getString("access_token");
    return HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + path))
      .timeout(Duration.ofMinutes(2)).header("x-okapi-tenant", "alpha").header("x-okapi-token", token);
  }

  /** The body, handed out at most one step at a time with the caller's pause before each step after the first. */
  private static final class PacedBody extends InputStream {

    private final InputStream whole = new ByteArrayInputStream(body);
    private int leftInStep = STEP;

    @Override
    public int read() throws IOException {
      var one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
      if (leftInStep == 0) {
        try {
          Thread.sleep(PAUSE_MILLIS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted", e);
        }
        leftInStep = STEP;
      }
      int read = whole.read(into, offset, Math.min(length, leftInStep));
      if (read > 0) {
        leftInStep -= read;
      }
      return read;
    }
  }
}
