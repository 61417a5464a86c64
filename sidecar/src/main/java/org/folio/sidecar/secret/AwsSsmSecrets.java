package org.folio.sidecar.secret;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.folio.sidecar.error.SidecarError;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.ssm.model.GetParameterRequest;
import software.amazon.awssdk.services.ssm.model.ParameterNotFoundException;

/**
 * AWS Systems Manager Parameter Store through the AWS SDK v2 (its URL-connection HTTP client): the parameter
 * named by the key, decrypted. The SDK client blocks, so each call runs on a worker thread.
 */
final class AwsSsmSecrets implements SecretStore {

  private final SsmClient client;
  private final Vertx vertx;

  AwsSsmSecrets(SsmClient client, Vertx vertx) {
    this.client = client;
    this.vertx = vertx;
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
}
