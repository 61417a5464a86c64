package org.folio.sidecar.support;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PfxOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The platform plus TLS: certificates made at test time with keytool, the sidecar serving HTTPS with one,
 * trusting it for egress, and two HTTPS targets: one with that certificate, one signed by a stranger.
 */
public class TlsTestResource implements QuarkusTestResourceLifecycleManager {

  public static final String PASSWORD = "changeit";
  private Vertx vertx;

  @Override
  public Map<String, String> start() {
    try {
      var dir = Files.createTempDirectory("sidecar-tls");
      var trusted = keystore(dir, "trusted");
      var stranger = keystore(dir, "stranger");
      vertx = Vertx.vertx();
      int trustedPort = httpsServer(trusted);
      int strangerPort = httpsServer(stranger);
      System.setProperty("tlstest.keystore", trusted.toString());
      var config = new HashMap<>(TestPlatform.get().sidecarConfig());
      config.put("quarkus.http.ssl.certificate.key-store-file", trusted.toString());
      config.put("quarkus.http.ssl.certificate.key-store-password", PASSWORD);
      config.put("tls.forwarding.path", dir.resolve("trusted.pem").toString());
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
      .requestHandler(request -> request.response().putHeader("content-type", "application/json").end("{\"from\":\"tls\"}"))
      .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
  }

  /** A PKCS12 keystore with a self-signed certificate for localhost, and the certificate as PEM beside it. */
  private static Path keystore(Path dir, String name) throws IOException, InterruptedException {
    var keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    var store = dir.resolve(name + ".p12");
    run(List.of(keytool, "-genkeypair", "-alias", name, "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
      "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-keystore", store.toString(),
      "-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD));
    run(List.of(keytool, "-exportcert", "-rfc", "-alias", name, "-keystore", store.toString(), "-storetype", "PKCS12",
      "-storepass", PASSWORD, "-file", dir.resolve(name + ".pem").toString()));
    return store;
  }

  private static void run(List<String> command) throws IOException, InterruptedException {
    var process = new ProcessBuilder(command).redirectErrorStream(true).start();
    var output = new String(process.getInputStream().readAllBytes());
    if (process.waitFor() != 0) {
      throw new IllegalStateException("keytool failed: " + output);
    }
  }
}
