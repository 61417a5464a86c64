package org.folio.sidecar.testkit;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Certificates made at test time with the JDK's keytool: nothing is checked in, nothing outlives the run. */
public final class Certificates {

  public static final String PASSWORD = "changeit";

  private Certificates() {
  }

  /** A PKCS12 keystore with a self-signed certificate for localhost, and the certificate as PEM beside it. */
  public static Path selfSigned(Path dir, String name) throws IOException, InterruptedException {
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
