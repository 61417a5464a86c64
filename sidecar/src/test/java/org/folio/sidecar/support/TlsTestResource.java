package org.folio.sidecar.support;

import org.folio.sidecar.testkit.Certificates;
import org.folio.sidecar.testkit.TestPlatform;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PfxOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The platform plus TLS: certificates made at test time with keytool, the sidecar serving HTTPS with one,
 * trusting it for egress, and two HTTPS targets: one with that certificate, one signed by a stranger.
 */
public class TlsTestResource implements QuarkusTestResourceLifecycleManager {

  public static final String PASSWORD = Certificates.PASSWORD;
  private Vertx vertx;

  @Override
  public Map<String, String> start() {
    try {
      var dir = Files.createTempDirectory("sidecar-tls");
      var trusted = Certificates.selfSigned(dir, "trusted");
      var stranger = Certificates.selfSigned(dir, "stranger");
      vertx = Vertx.vertx();
      int trustedPort = httpsServer(trusted);
      int strangerPort = httpsServer(stranger);
      System.setProperty("tlstest.keystore", trusted.toString());
      var config = new HashMap<>(TestPlatform.get().sidecarConfig());
      config.put("quarkus.http.ssl.certificate.key-store-file", trusted.toString());
      config.put("quarkus.http.ssl.certificate.key-store-password", PASSWORD);
      config.put("tls.forwarding.path", dir.resolve("trusted.pem").toString());
      // the gateway is served with the certificate the module truststore does not trust, and has its own
      config.put("tls.gateway.path", dir.resolve("stranger.pem").toString());
      config.put("egress.forward-unknown-requests", "true");
      config.put("egress.forward-unknown-requests-destination", "https://localhost:" + strangerPort);
      config.put("egress.route-overrides",
        "mod-down=https://localhost:" + trustedPort + ",mod-users=https://localhost:" + strangerPort);
      return config;
    } catch (Exception e) {
      throw new IllegalStateException("cannot set up TLS for the test", e);
    }
  }

  @Override
  public void stop() {
    if (vertx != null) {
      vertx.close();
    }
  }

  private int httpsServer(Path keystore) throws Exception {
    var options = new HttpServerOptions().setSsl(true)
      .setKeyCertOptions(new PfxOptions().setPath(keystore.toString()).setPassword(PASSWORD));
    return vertx.createHttpServer(options)
      .requestHandler(
        request -> request.response().putHeader("content-type", "application/json").end("{\"from\":\"tls\"}"))
      .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
  }
}
