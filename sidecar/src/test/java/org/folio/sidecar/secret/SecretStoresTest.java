package org.folio.sidecar.secret;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.PfxOptions;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.folio.sidecar.config.SecretStoreConfig;
import org.folio.sidecar.config.TlsConfig;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.testkit.Certificates;
import org.folio.sidecar.testkit.FakeTicker;
import org.folio.sidecar.support.LogCapture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each secret store against a server speaking its protocol, configured by upstream's variables: AWS SSM's JSON
 * protocol behind the real SDK client, Vault's KV v2 API, the secure store proxy's API. Found, missing,
 * store down, and a rotated secret picked up after the cache's TTL; no value ever in a log line.
 */
class SecretStoresTest {

  private static final String KEY = "folio_alpha_sidecar-module-access-client";
  private static final String VALUE = "s3cr3t-value-0123456789";
  private static final String ROTATED = "r0tated-value-9876543210";

  enum Store {
    AWS_SSM, VAULT, FSSP
  }

  private static Vertx vertx;
  private static WireMockServer server;
  private final FakeTicker ticker = new FakeTicker();

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    server = new WireMockServer(WireMockConfiguration.options().dynamicPort().bindAddress("127.0.0.1"));
    server.start();
  }

  @AfterAll
  static void stop() {
    server.stop();
    vertx.close();
  }

  @BeforeEach
  void reset() {
    server.resetAll();
  }

  /** The store as an operator configures it: upstream's variables, here as the properties they map to. */
  private SecretStore store(Store store, String address) {
    var properties = new HashMap<String, String>(Map.of("secret-store.type", store.name(),
      "secret-store.cache-ttl", "10m", "secret-store.timeout", "2s"));
    switch (store) {
      case AWS_SSM -> properties.putAll(Map.of("secret-store.aws-ssm.region", "us-east-1",
        "secret-store.aws-ssm.use-iam", "false", "secret-store.aws-ssm.access-key", "AKIDEXAMPLE",
        "secret-store.aws-ssm.secret-key", "wJalrXUtnFEMI", "secret-store.aws-ssm.ecs-credentials-endpoint", address,
        "secret-store.aws-ssm.ecs-credentials-path", "/"));
      case VAULT -> properties.putAll(Map.of("secret-store.vault.address", address,
        "secret-store.vault.token", "vault-token-1"));
      case FSSP -> properties.put("secret-store.fssp.address", address);
    }
    return fromProperties(properties);
  }

  private SecretStore fromProperties(Map<String, String> properties) {
    var config = new SmallRyeConfigBuilder().withMapping(SecretStoreConfig.class).withMapping(TlsConfig.class)
      .withConverter(Duration.class, 200, new DurationConverter())
      .withSources(new PropertiesConfigSource(properties, "test", 500)).build();
    return new SecretStores().secretStore(config.getConfigMapping(SecretStoreConfig.class), config, vertx,
      config.getConfigMapping(TlsConfig.class), ticker);
  }

  private void serve(Store store, String value) {
    switch (store) {
      case AWS_SSM -> server.stubFor(post(urlEqualTo("/")).withHeader("X-Amz-Target", equalTo("AmazonSSM.GetParameter"))
        .withRequestBody(equalToJson("{\"Name\":\"" + KEY + "\",\"WithDecryption\":true}"))
        .willReturn(aResponse().withStatus(200).withHeader("Content-Type", "application/x-amz-json-1.1")
          .withBody(new JsonObject().put("Parameter", new JsonObject().put("Name", KEY).put("Type", "SecureString")
            .put("Value", value).put("Version", 1)).encode())));
      case VAULT -> server.stubFor(get(urlEqualTo("/v1/secret/data/folio/alpha"))
        .withHeader("X-Vault-Token", equalTo("vault-token-1"))
        .willReturn(okJson(new JsonObject().put("data", new JsonObject()
          .put("data", new JsonObject().put("sidecar-module-access-client", value).put("other", "x"))
          .put("metadata", new JsonObject().put("version", 1))).encode())));
      case FSSP -> server.stubFor(get(urlEqualTo("/secure-store/entries/" + KEY))
        .willReturn(okJson(new JsonObject().put("key", KEY).put("value", value).encode())));
    }
  }

  private void serveMissing(Store store) {
    switch (store) {
      case AWS_SSM -> server.stubFor(post(urlEqualTo("/")).willReturn(aResponse().withStatus(400)
        .withHeader("Content-Type", "application/x-amz-json-1.1")
        .withBody("{\"__type\":\"ParameterNotFound\",\"message\":\"\"}")));
      case VAULT -> server.stubFor(get(urlEqualTo("/v1/secret/data/folio/alpha"))
        .willReturn(okJson("{\"data\":{\"data\":{\"other\":\"x\"}}}")));
      case FSSP ->
        server.stubFor(get(urlEqualTo("/secure-store/entries/" + KEY)).willReturn(aResponse().withStatus(404)));
    }
  }

  private static <T> Future<T> await(Future<T> future) throws Exception {
    future.toCompletionStage().toCompletableFuture().handle((r, e) -> null).get(20, TimeUnit.SECONDS);
    return future;
  }

  @ParameterizedTest
  @EnumSource(Store.class)
  void aStoredSecretIsReadAndKeptUntilItsTtl(Store type) throws Exception {
    try (var capture = LogCapture.install()) {
      serve(type, VALUE);
      var store = store(type, server.baseUrl());

      long started = System.nanoTime();
      assertThat(await(store.secret(KEY)).result()).isEqualTo(VALUE);
      // a figure, not a limit: the first read builds the store's client (for AWS_SSM the SDK's)
      System.out.printf("%s: first read (client built) %d ms%n", type, (System.nanoTime() - started) / 1_000_000);

      // rotated in the store: the cached value serves until its TTL, then the new one
      server.resetAll();
      serve(type, ROTATED);
      assertThat(await(store.secret(KEY)).result()).isEqualTo(VALUE);
      ticker.advance(Duration.ofMinutes(11));
      assertThat(await(store.secret(KEY)).result()).isEqualTo(ROTATED);
      assertThat(capture.lines()).noneMatch(line -> line.contains(VALUE) || line.contains(ROTATED));
    }
  }

  @ParameterizedTest
  @EnumSource(Store.class)
  void aMissingKeyIsAnErrorNamingTheKey(Store type) throws Exception {
    serveMissing(type);

    var result = await(store(type, server.baseUrl()).secret(KEY));

    assertThat(result.failed()).isTrue();
    var error = (SidecarError) result.cause();
    assertThat(error.status()).isEqualTo(500);
    assertThat(error.getMessage()).isEqualTo("Secret not found: key = " + KEY);
  }

  @ParameterizedTest
  @EnumSource(Store.class)
  void aStoreThatIsDownIsA503AndIsAskedAgainNextTime(Store type) throws Exception {
    var store = store(type, "http://127.0.0.1:9");

    var result = await(store.secret(KEY));

    assertThat(result.failed()).isTrue();
    assertThat(((SidecarError) result.cause()).status()).isEqualTo(503);
    assertThat(((SidecarError) result.cause()).code()).isEqualTo("service_error");
  }

  @ParameterizedTest
  @EnumSource(Store.class)
  void aSecretKeycloakRefusedIsReadAgain(Store type) throws Exception {
    serve(type, VALUE);
    var store = store(type, server.baseUrl());
    await(store.secret(KEY));
    server.resetAll();
    serve(type, ROTATED);

    store.forgetWhenRefused(SidecarError.unauthorized("Keycloak refused the service token request"), KEY);

    assertThat(await(store.secret(KEY)).result()).isEqualTo(ROTATED);
  }

  @Test
  void vaultOverTlsTrustsItsPemFileAndNothingElse() throws Exception {
    var dir = Files.createTempDirectory("vault-tls");
    var keystore = Certificates.selfSigned(dir, "vault");
    var https = vertx.createHttpServer(new HttpServerOptions().setSsl(true)
      .setKeyCertOptions(new PfxOptions().setPath(keystore.toString()).setPassword(Certificates.PASSWORD)))
      .requestHandler(request -> request.response().putHeader("content-type", "application/json")
        .end(new JsonObject().put("data", new JsonObject().put("data",
          new JsonObject().put("sidecar-module-access-client", VALUE))).encode()))
      .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    try {
      var address = "https://localhost:" + https.actualPort();
      var trusting = vaultOverTls(address,
        Map.of("secret-store.vault.pem-file-path", dir.resolve("vault.pem").toString()));
      var trustingNothing = vaultOverTls(address, Map.of());

      assertThat(await(trusting.secret(KEY)).result()).isEqualTo(VALUE);
      var refused = await(trustingNothing.secret(KEY));
      assertThat(refused.failed()).isTrue();
      assertThat(((SidecarError) refused.cause()).status()).isEqualTo(503);
    } finally {
      https.close();
    }
  }

  private SecretStore vaultOverTls(String address, Map<String, String> extra) {
    var properties = new HashMap<String, String>(Map.of("secret-store.type", "VAULT", "secret-store.timeout", "2s",
      "secret-store.vault.address", address, "secret-store.vault.token", "vault-token-1",
      "secret-store.vault.enable-ssl", "true"));
    properties.putAll(extra);
    return fromProperties(properties);
  }
}
