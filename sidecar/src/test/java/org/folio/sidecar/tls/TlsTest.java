package org.folio.sidecar.tls;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.FileInputStream;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyStore;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.folio.sidecar.support.AccessLines;
import org.folio.sidecar.support.LogCapture;
import org.folio.sidecar.support.TlsTestResource;
import org.junit.jupiter.api.Test;

/** HTTPS in and out with certificates made at test time; a certificate from an untrusted CA fails fast. */
@QuarkusTest
@WithTestResource(value = TlsTestResource.class, parallel = true)
class TlsTest {

  @TestHTTPResource(value = "/", tls = true)
  URL secure;

  @Test
  void servesHttpsWithTheConfiguredKeystore() throws Exception {
    var trust = KeyStore.getInstance("PKCS12");
    try (var in = new FileInputStream(System.getProperty("tlstest.keystore"))) {
      trust.load(in, TlsTestResource.PASSWORD.toCharArray());
    }
    var factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(trust);
    var ssl = SSLContext.getInstance("TLS");
    ssl.init(null, factory.getTrustManagers(), null);
    var http = HttpClient.newBuilder().sslContext(ssl).build();
    var url = URI.create("https://localhost:" + secure.getPort() + "/public/info");

    var response = http.send(HttpRequest.newBuilder(url).header("x-okapi-tenant", "alpha").build(),
      HttpResponse.BodyHandlers.ofString());

    assertThat(url.getScheme()).isEqualTo("https");
    assertThat(response.statusCode()).isEqualTo(200);
    // the client offers h2 first; with SIDECAR_HTTP2_ENABLED off (the default) ALPN settles on HTTP/1.1
    assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
  }

  @Test
  void egressOverHttpsTrustsTheConfiguredCertificate() {
    given().header("x-okapi-tenant", "alpha").get("/down/1").then().statusCode(200).body("from", equalTo("tls"));
  }

  @Test
  void certificateOfAnUntrustedCaFailsFastWithAClearError() {
    try (var capture = LogCapture.install()) {
      given().header("x-okapi-tenant", "alpha").get("/users/1").then().statusCode(502);
      AccessLines.assertReason(capture, "GET /users/1 502", "SSL");
    }
  }

  @Test
  void theGatewayIsTrustedByItsOwnTruststore() {
    // the gateway's certificate is one the module truststore refuses (see above); GW_CLIENT_TLS_* trusts it
    given().header("x-okapi-tenant", "alpha").get("/nobody/provides/this").then().statusCode(200)
      .body("from", equalTo("tls"));
  }
}
