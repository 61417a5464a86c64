package org.folio.sidecar.secret;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.WebClient;
import java.util.function.Function;
import org.folio.sidecar.error.SidecarError;

/**
 * The stores spoken to over HTTP with the sidecar's Vert.x web client: Vault's KV v2 API and FOLIO's secure
 * store proxy. Each maps a key to a request and reads the value from the JSON answer.
 */
final class HttpSecrets implements SecretStore {

  /** How one store is asked: the request for a key, and the value in a 200 answer (null: the key is missing). */
  interface Protocol {
    HttpRequest<Buffer> request(WebClient client, String key);

    String value(JsonObject body, String key);
  }

  private final WebClient client;
  private final Protocol protocol;
  private final long timeoutMillis;
  private final String name;

  HttpSecrets(WebClient client, Protocol protocol, long timeoutMillis, String name) {
    this.client = client;
    this.protocol = protocol;
    this.timeoutMillis = timeoutMillis;
    this.name = name;
  }

  @Override
  public Future<String> secret(String key) {
    return protocol.request(client, key).timeout(timeoutMillis).send().transform(result -> {
      if (result.failed()) {
        return Future.failedFuture(SidecarError.secretStoreUnavailable(name + " unreachable: "
          + result.cause().getClass().getSimpleName()));
      }
      var response = result.result();
      if (response.statusCode() == 404) {
        return Future.failedFuture(SidecarError.secretNotFound(key));
      }
      if (response.statusCode() != 200) {
        return Future.failedFuture(SidecarError.secretStoreUnavailable(name + " answered " + response.statusCode()));
      }
      return parse(response.bodyAsString(), body -> protocol.value(body, key), key);
    });
  }

  private Future<String> parse(String text, Function<JsonObject, String> read, String key) {
    try {
      var value = read.apply(new JsonObject(text == null ? "{}" : text));
      return value == null ? Future.failedFuture(SidecarError.secretNotFound(key)) : Future.succeededFuture(value);
    } catch (DecodeException | ClassCastException e) {
      return Future
        .failedFuture(SidecarError.secretStoreUnavailable(name + " answered something that is not its JSON"));
    }
  }
}
