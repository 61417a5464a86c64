package org.folio.sidecar.secret;

import com.github.benmanes.caffeine.cache.Ticker;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.JksOptions;
import io.vertx.core.net.KeyStoreOptionsBase;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.net.PfxOptions;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Optional;
import java.util.function.Supplier;
import org.eclipse.microprofile.config.Config;
import org.folio.sidecar.config.ConfigValidator;
import org.folio.sidecar.config.SecretStoreConfig;
import org.folio.sidecar.config.TlsConfig;
import org.jspecify.annotations.Nullable;

/**
 * Builds the secret store SECRET_STORE_TYPE names, behind a cache. The configuration was checked at start-up
 * ({@link ConfigValidator}), so required values are present here.
 */
@Singleton
public class SecretStores {

  @Produces
  @Singleton
  SecretStore secretStore(SecretStoreConfig config, Config properties, Vertx vertx, TlsConfig tls, Ticker ticker) {
    // built on first use: beans that hold the store are created while the HTTP router is set up, before the
    // start-up validator has named a missing variable
    return new Lazy(() -> build(config, properties, vertx, tls, ticker));
  }

  /** A store built when it is first asked for a secret. */
  private static final class Lazy implements SecretStore {

    private final Supplier<SecretStore> build;
    private volatile @Nullable SecretStore store;

    Lazy(Supplier<SecretStore> build) {
      this.build = build;
    }

    private SecretStore store() {
      var built = store;
      if (built == null) {
        synchronized (this) {
          if (store == null) {
            store = build.get();
          }
          built = store;
        }
      }
      return built;
    }

    @Override
    public Future<String> secret(String key) {
      return store().secret(key);
    }

    @Override
    public void forget(String key) {
      store().forget(key);
    }
  }

  static SecretStore build(SecretStoreConfig config, Config properties, Vertx vertx, TlsConfig tls, Ticker ticker) {
    var type = ConfigValidator.secretStoreType(config.type()).orElse(SecretStoreConfig.Type.EPHEMERAL);
    long timeout = config.timeout().toMillis();
    return switch (type) {
      // properties are in memory already: nothing to cache
      case EPHEMERAL -> new EphemeralSecrets(config.ephemeralContent(), properties);
      case AWS_SSM -> new CachedSecrets(AwsSsmSecrets.create(config, vertx),
        config.cacheTtl(), config.failureCacheTtl(), ticker);
      case VAULT -> new CachedSecrets(new HttpSecrets(vaultClient(vertx, config.vault(), tls),
        vault(config.vault()), timeout, "Vault"), config.cacheTtl(), config.failureCacheTtl(), ticker);
      case FSSP -> new CachedSecrets(new HttpSecrets(fsspClient(vertx, config.fssp(), tls), fssp(config.fssp()),
        timeout, "the secure store proxy"), config.cacheTtl(), config.failureCacheTtl(), ticker);
    };
  }

  /** KV v2: {@code GET /v1/<mount>/data/<path>}, the value at {@code data.data.<name>}; key {@code a_b_c} is {@code a/b}, {@code c}. */
  private static HttpSecrets.Protocol vault(SecretStoreConfig.Vault vault) {
    var base = ConfigValidator.withoutTrailingSlash(vault.address().orElseThrow()) + "/v1/" + vault.secretRoot()
      + "/data/";
    var token = vault.token().orElseThrow();
    return new HttpSecrets.Protocol() {
      @Override
      public HttpRequest<Buffer> request(WebClient client, String key) {
        int last = key.lastIndexOf('_');
        return client.getAbs(base + key.substring(0, Math.max(0, last)).replace('_', '/'))
          .putHeader("X-Vault-Token", token);
      }

      @Override
      public String value(JsonObject body, String key) {
        var data = body.getJsonObject("data", new JsonObject()).getJsonObject("data", new JsonObject());
        return data.getString(key.substring(key.lastIndexOf('_') + 1));
      }
    };
  }

  /** The secure store proxy: {@code GET <address>/<secret path>/<key>} answers {@code {"key", "value"}}. */
  private static HttpSecrets.Protocol fssp(SecretStoreConfig.Fssp fssp) {
    var path = fssp.secretPath().replaceAll("^/+|/+$", "");
    var base = ConfigValidator.withoutTrailingSlash(fssp.address().orElseThrow()) + "/" + path + "/";
    return new HttpSecrets.Protocol() {
      @Override
      public HttpRequest<Buffer> request(WebClient client, String key) {
        return client.getAbs(base + key).putHeader("Accept", "application/json");
      }

      @Override
      public String value(JsonObject body, String key) {
        return body.getString("value");
      }
    };
  }

  private static WebClient vaultClient(Vertx vertx, SecretStoreConfig.Vault vault, TlsConfig tls) {
    var options = new WebClientOptions().setUserAgentEnabled(false).setFollowRedirects(false);
    if (vault.enableSsl()) {
      options.setVerifyHost(tls.verifyHostname());
      vault.pemFilePath().filter(p -> !p.isBlank())
        .ifPresent(pem -> options.setTrustOptions(new PemTrustOptions().addCertPath(pem)));
      vault.truststoreFilePath().filter(p -> !p.isBlank())
        .ifPresent(jks -> options
          .setTrustOptions(new JksOptions().setPath(jks).setPassword(vault.keystorePassword().orElse(null))));
      vault.keystoreFilePath().filter(p -> !p.isBlank())
        .ifPresent(jks -> options
          .setKeyCertOptions(new JksOptions().setPath(jks).setPassword(vault.keystorePassword().orElse(null))));
    }
    return WebClient.create(vertx, options);
  }

  private static WebClient fsspClient(Vertx vertx, SecretStoreConfig.Fssp fssp, TlsConfig tls) {
    var options = new WebClientOptions().setUserAgentEnabled(false).setFollowRedirects(false)
      .setVerifyHost(tls.verifyHostname());
    fssp.trustStorePath().filter(p -> !p.isBlank())
      .ifPresent(path -> options.setTrustOptions(store(path, fssp.trustStoreFileType(), fssp.trustStorePassword())));
    fssp.keyStorePath().filter(p -> !p.isBlank())
      .ifPresent(path -> options.setKeyCertOptions(store(path, fssp.keyStoreFileType(), fssp.keyStorePassword())));
    return WebClient.create(vertx, options);
  }

  private static KeyStoreOptionsBase store(String path, Optional<String> type,
    Optional<String> password) {
    boolean jks = type.map(t -> t.equalsIgnoreCase("JKS")).orElse(path.endsWith(".jks"));
    return jks
      ? new JksOptions().setPath(path).setPassword(password.orElse(null))
      : new PfxOptions().setPath(path).setPassword(password.orElse(null));
  }
}
