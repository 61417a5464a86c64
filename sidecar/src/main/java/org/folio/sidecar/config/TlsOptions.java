package org.folio.sidecar.config;

import io.quarkus.runtime.configuration.ConfigurationException;
import io.vertx.core.net.ClientOptionsBase;
import io.vertx.core.net.JksOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.net.PfxOptions;
import io.vertx.core.net.TrustOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** Applies a configured truststore to a Vert.x client; checked at start-up so a bad path names its variable. */
public final class TlsOptions {

  private TlsOptions() {
  }

  public static <T extends ClientOptionsBase> T trust(T options, TlsConfig.Truststore store, boolean verifyHostname,
    String variablePrefix) {
    var path = store.path().filter(p -> !p.isBlank());
    if (path.isEmpty()) {
      return options;
    }
    if (!Files.isReadable(Path.of(path.get()))) {
      // ConfigValidator names this first; a client built before it ran still stops with one line
      throw new ConfigurationException(variablePrefix + "_PATH must name a readable file, got '" + path.get() + "'");
    }
    options.setTrustOptions(trustOptions(path.get(), store));
    if (options instanceof io.vertx.core.http.HttpClientOptions http) {
      http.setVerifyHost(verifyHostname);
    }
    return options;
  }

  private static TrustOptions trustOptions(String path, TlsConfig.Truststore store) {
    var type = store.type().toUpperCase(Locale.ROOT);
    if (type.equals("PEM") || path.endsWith(".pem") || path.endsWith(".crt")) {
      return new PemTrustOptions().addCertPath(path);
    }
    var password = store.password().orElse(null);
    return type.equals("JKS")
      ? new JksOptions().setPath(path).setPassword(password)
      : new PfxOptions().setPath(path).setPassword(password);
  }
}
