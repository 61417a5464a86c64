package org.folio.sidecar.forward;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import com.sun.net.httpserver.HttpServer;
import io.restassured.RestAssured;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 43 item 2, the other half: the send deadline cuts a relay that stopped moving, never one that moves however
 * long it takes (upstream's MODSIDECAR-207: a 27-MB data-import upload cut off at 60 s). 100 MB each way, paced by
 * the caller in 256-KiB steps 80 ms apart, so each transfer lasts at least 32 s: longer than REQUEST_TIMEOUT (30 s
 * here, which for an upload runs from the body's end) and more than ten send timeouts (3 s), while no pause comes
 * near either. Both arrive whole, byte for byte. The module stub proxies both to an origin in this test (WireMock's
 * admin API carries no body this large): it serves the download and reads the upload's digest. The stub holds the
 * whole upload before it passes it on, which on a busy machine took more than 10 s after the body's end: so the
 * request timeout is 30 s, not shorter.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, initArgs = {
  @ResourceArg(name = "sidecar.send-timeout", value = "3s"),
  @ResourceArg(name = "sidecar.request-timeout", value = "30000")})
class SteadyTransfersTest {

  private static final int SIZE = 100 * 1024 * 1024;
  private static final int STEP = 256 * 1024;
  private static final long PAUSE_MILLIS = 80;
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

  private static byte[] body;
  private static String bodyDigest;
  private static HttpServer origin;
  private static volatile String uploadDigest = "";
  private static volatile long uploadSize = -1;

  private final TestPlatform platform = TestPlatform.get();
  private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @BeforeAll
  static void makeBody() throws NoSuchAlgorithmException {
    body = new byte[SIZE];
    new Random(43).nextBytes(body);
    bodyDigest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
  }

  @BeforeAll
  static void startOrigin() throws IOException {
    origin = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    origin.createContext("/downloads/steady", exchange -> {
      exchange.getResponseHeaders().set("content-type", "application/octet-stream");
      exchange.sendResponseHeaders(200, SIZE);
      try (var out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    origin.createContext("/uploads", exchange -> {
      try (var in = exchange.getRequestBody()) {
        var digest = MessageDigest.getInstance("SHA-256");
        long size = 0;
        var buffer = new byte[STEP];
        for (int read; (read = in.read(buffer)) > 0;) {
          digest.update(buffer, 0, read);
          size += read;
        }
        uploadSize = size;
        uploadDigest = HexFormat.of().formatHex(digest.digest());
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    origin.start();
  }

  @AfterAll
  static void stopOrigin() {
    origin.stop(0);
  }

  private static String originUrl() {
    return "http://127.0.0.1:" + origin.getAddress().getPort();
  }

  @BeforeEach
  @AfterEach
  void resetModule() {
    platform.resetModule();
  }

  @Test
  void aSlowButSteadyDownloadOf100MegabytesArrivesWhole() throws Exception {
    platform.module().stubFor(get(urlEqualTo("/downloads/steady")).willReturn(aResponse().proxiedFrom(originUrl())));
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
    platform.module().stubFor(post(urlEqualTo("/uploads")).willReturn(aResponse().proxiedFrom(originUrl())));
    long started = System.nanoTime();

    var response = client.send(request("/uploads").header("content-type", "application/octet-stream")
      .POST(HttpRequest.BodyPublishers.ofInputStream(PacedBody::new)).build(), HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the transfer outlasted REQUEST_TIMEOUT")
      .isGreaterThan(REQUEST_TIMEOUT);
    assertThat(uploadSize).isEqualTo(SIZE);
    assertThat(uploadDigest).isEqualTo(bodyDigest);
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
