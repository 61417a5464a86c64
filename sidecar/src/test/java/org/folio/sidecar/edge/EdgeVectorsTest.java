package org.folio.sidecar.edge;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.assertj.core.api.SoftAssertions;
import org.folio.sidecar.support.Nginx;
import org.folio.sidecar.testkit.RawHttp;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Issue 34 item 5: the HTTP/1.1 edge as a table. Each vector of {@link EdgeVectors} goes over a raw socket to the
 * sidecar and, as a reference, to Debian's nginx proxying to the same module stub; per row the status, whether
 * the connection was closed after, and what the module received (method, target, headers of note). The assertion
 * is on the sidecar's documented outcome; nginx's column is printed beside it (docs/security-edge.md explains each
 * difference), and its column is left out where nginx is not installed.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true)
class EdgeVectorsTest {

  private static final int ANSWER_MILLIS = 10_000;
  private static final int QUIET_MILLIS = 1_500;
  private static final List<String> OF_NOTE = List.of("x-http-method-override", "x-http-method", "x-method-override",
    "transfer-encoding", "x-okapi-token");

  /** One edge's handling of a vector. */
  record Seen(int status, boolean closed, List<String> received, String answer) {

    String cell() {
      return (status < 0 ? "none" : String.valueOf(status)) + " " + (closed ? "closed" : "open") + " "
        + (received.isEmpty() ? "-" : String.join(" + ", received));
    }

    List<String> targets() {
      return received.stream().map(line -> line.split(" \\[", 2)[0]).toList();
    }
  }

  @Test
  void everyVectorGetsItsDocumentedOutcome() {
    var platform = TestPlatform.get();
    var binary = Nginx.binary();
    var vectors = EdgeVectors.all();
    var rows = new ArrayList<String>();
    var soft = new SoftAssertions();
    int refused = 0;
    int forwarded = 0;
    int agree = 0;
    try (var nginx = binary.map(path -> Nginx.proxyTo(path, URI.create(platform.module().baseUrl()).getPort()))
      .orElse(null)) {
      for (var vector : vectors) {
        var sidecar = send(platform, RestAssured.port, vector);
        var reference = nginx == null ? null : send(platform, nginx.port(), vector);
        soft.assertThat(sidecar.status()).as(vector.name() + ": status").isEqualTo(vector.outcome().status);
        soft.assertThat(sidecar.closed()).as(vector.name() + ": connection closed").isEqualTo(vector.outcome().closed);
        soft.assertThat(sidecar.targets()).as(vector.name() + ": what the module received")
          .isEqualTo(vector.received());
        if (vector.outcome() == EdgeVectors.Outcome.REFUSED) {
          // the sidecar's own answer in upstream's format, not a module's refusal relayed
          soft.assertThat(sidecar.answer()).as(vector.name() + ": answered by the sidecar").contains("\"errors\"");
        }
        if (sidecar.received().isEmpty()) {
          refused++;
        } else {
          forwarded++;
        }
        boolean same = reference != null && reference.status() == sidecar.status()
          && reference.closed() == sidecar.closed() && reference.targets().equals(sidecar.targets());
        if (same) {
          agree++;
        }
        rows.add(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s |", vector.name(), vector.outcome(),
          sidecar.cell(), reference == null ? "n/a" : reference.cell(),
          reference == null ? "n/a" : same ? "yes" : "no"));
      }
    }
    System.out.println("| vector | expected | sidecar: status, connection, module received | nginx "
      + "(Debian's, proxy_pass) | agree |");
    System.out.println("| --- | --- | --- | --- | --- |");
    rows.forEach(System.out::println);
    System.out.printf(Locale.ROOT, "Edge vectors: %d rows, %d refused, %d forwarded, %s%n", vectors.size(), refused,
      forwarded, binary.isPresent()
        ? agree + " where the sidecar and nginx agree"
        : "nginx column skipped (no nginx binary)");
    soft.assertAll();
  }

  private static Seen send(TestPlatform platform, int port, EdgeVectors.Vector vector) {
    platform.resetModule();
    var exchange = RawHttp.send(port, vector.request(), ANSWER_MILLIS, QUIET_MILLIS);
    var received = new ArrayList<String>();
    for (var request : platform.module().findAll(anyRequestedFor(anyUrl()))) {
      // the sidecar's own health probe of the module is not the vector's
      if (!"/admin/health".equals(request.getUrl())) {
        received.add(describe(request));
      }
    }
    return new Seen(exchange.status(), exchange.closed(), received, exchange.received());
  }

  private static String describe(LoggedRequest request) {
    var notes = new ArrayList<String>();
    for (var name : OF_NOTE) {
      @Nullable
      String value = request.containsHeader(name) ? request.getHeader(name) : null;
      if (value != null) {
        notes.add(name + ": " + (name.equals("x-okapi-token") ? value.length() + " chars" : value));
      }
    }
    return request.getMethod().value() + " " + request.getUrl() + (notes.isEmpty()
      ? ""
      : " [" + String.join(", ",
        notes) + "]");
  }
}
