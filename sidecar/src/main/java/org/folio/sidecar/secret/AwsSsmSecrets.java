package org.folio.sidecar.secret;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Optional;
import javax.net.ssl.TrustManagerFactory;
import org.folio.sidecar.config.SecretStoreConfig;
import org.folio.sidecar.error.SidecarError;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.ssm.model.GetParameterRequest;
import software.amazon.awssdk.services.ssm.model.ParameterNotFoundException;

/**
 * AWS Systems Manager Parameter Store through the AWS SDK v2 (its URL-connection HTTP client): the parameter
 * named by the key, decrypted. The SDK client blocks, so each call runs on a worker thread. Everything that names an
 * SDK type is here, so the SDK's classes load only when SECRET_STORE_TYPE=AWS_SSM (SecretStores' signatures name
 * none, and the verifier loads what a method's signatures and calls name).
 */
final class AwsSsmSecrets implements SecretStore {

  private final SsmClient client;
  private final Vertx vertx;

  AwsSsmSecrets(SsmClient client, Vertx vertx) {
    this.client = client;
    this.vertx = vertx;
  }

  /** The store SECRET_STORE_TYPE=AWS_SSM configures. */
  static AwsSsmSecrets create(SecretStoreConfig config, Vertx vertx) {
    return new AwsSsmSecrets(ssmClient(config.awsSsm(), config), vertx);
  }

  @Override
  public Future<String> secret(String key) {
    var request = GetParameterRequest.builder().name(key).withDecryption(true).build();
    return vertx.executeBlocking(() -> client.getParameter(request).parameter().value(), false)
      .recover(error -> Future.failedFuture(switch (error) {
        case ParameterNotFoundException notFound -> SidecarError.secretNotFound(key);
        case SdkException sdk -> SidecarError.secretStoreUnavailable("AWS SSM: " + sdk.getClass().getSimpleName());
        default -> SidecarError.secretStoreUnavailable("AWS SSM: " + error.getClass().getSimpleName());
      }));
  }

  /**
   * The SDK's synchronous SSM client over its URL-connection HTTP client (no second Netty). As upstream: with
   * USE_IAM the default credentials chain, otherwise the static keys and, when set, the ECS credentials
   * endpoint and path as the endpoint called.
   */
  private static SsmClient ssmClient(SecretStoreConfig.AwsSsm aws, SecretStoreConfig config) {
    var http = UrlConnectionHttpClient.builder()
      .connectionTimeout(config.timeout()).socketTimeout(config.timeout());
    if (aws.fipsEnabled()) {
      var trustManagers = trustManagers(aws);
      http.tlsTrustManagersProvider(() -> trustManagers);
    }
    var builder = SsmClient.builder().region(Region.of(aws.region().orElseThrow())).httpClient(http.build());
    if (aws.fipsEnabled()) {
      builder.fipsEnabled(true);
    }
    if (!aws.useIam()) {
      builder.credentialsProvider(StaticCredentialsProvider.create(
        AwsBasicCredentials.create(aws.accessKey().orElseThrow(), aws.secretKey().orElseThrow())));
      var path = aws.ecsCredentialsPath()
        .or(() -> Optional.ofNullable(System.getenv("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI")));
      aws.ecsCredentialsEndpoint().filter(endpoint -> !endpoint.isBlank())
        .ifPresent(endpoint -> builder.endpointOverride(URI.create(endpoint + path.orElse(""))));
    }
    return builder.build();
  }

  private static javax.net.ssl.TrustManager[] trustManagers(SecretStoreConfig.AwsSsm aws) {
    var path = aws.trustStorePath().orElseThrow();
    try (InputStream in = Files.newInputStream(Path.of(path))) {
      var store = KeyStore.getInstance(aws.trustStoreFileType().filter(t -> !t.isBlank()).orElse("PKCS12"));
      store.load(in, aws.trustStorePassword().map(String::toCharArray).orElse(null));
      var factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(store);
      return factory.getTrustManagers();
    } catch (IOException | GeneralSecurityException e) {
      throw new io.quarkus.runtime.configuration.ConfigurationException(
        "SECRET_STORE_AWS_SSM_TRUSTSTORE_PATH '" + path + "' cannot be loaded: " + e.getMessage());
    }
  }
}
