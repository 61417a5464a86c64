package org.folio.sidecar.platform;

import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import org.folio.sidecar.config.KeycloakConfig;
import org.folio.sidecar.config.PlatformConfig;
import org.folio.sidecar.config.TlsConfig;
import org.folio.sidecar.config.TlsOptions;
import org.folio.sidecar.token.ServiceTokens;

/**
 * The one way the sidecar calls FOLIO's managers and mod-users-keycloak: a JSON GET with a service token, the
 * configured timeout, offset paging, and any answer but 200 turned into a {@link PlatformCallException}. Its
 * connections and truststore are its own, not Keycloak's.
 */
@Singleton
public class PlatformClient {

  private final WebClient client;
  private final ServiceTokens tokens;
  private final long timeoutMillis;

  PlatformClient(Vertx vertx, PlatformConfig config, KeycloakConfig keycloak, TlsConfig tls, ServiceTokens tokens) {
    var options = new WebClientOptions()
      .setConnectTimeout((int) keycloak.connectTimeout().toMillis())
      .setKeepAlive(true)
      .setMaxPoolSize(config.maxPoolSize())
      .setUserAgentEnabled(false)
      .setFollowRedirects(false);
    this.client = WebClient.create(vertx, TlsOptions.trust(options, tls.platform(), tls.verifyHostname(),
      "MGR_CLIENT_TLS_TRUSTSTORE"));
    this.tokens = tokens;
    this.timeoutMillis = config.timeout().toMillis();
  }

  /**
   * GET {@code url} as {@code tenant}'s service: the token of that tenant's service client, and for a tenant other
   * than {@link ServiceTokens#MASTER} (the managers' realm) its name in {@code x-okapi-tenant}.
   */
  public Future<JsonObject> get(String service, String tenant, String url, MultiMap query) {
    return tokens.platformToken(tenant).compose(token -> {
      var request = client.getAbs(url).putHeader("x-okapi-token", token).timeout(timeoutMillis);
      if (!ServiceTokens.MASTER.equals(tenant)) {
        request.putHeader("x-okapi-tenant", tenant);
      }
      request.queryParams().addAll(query);
      return request.send().transform(result -> answer(service, result));
    });
  }

  /** POST {@code body} to a manager as the master realm's service; any answer but 200 fails as a GET's does. */
  public Future<JsonObject> post(String service, String url, JsonObject body) {
    return tokens.platformToken(ServiceTokens.MASTER)
      .compose(token -> client.postAbs(url).putHeader("x-okapi-token", token)
        .timeout(timeoutMillis).sendJsonObject(body).transform(result -> answer(service, result)));
  }

  private static Future<JsonObject> answer(String service, AsyncResult<HttpResponse<Buffer>> result) {
    if (result.failed()) {
      return Future.failedFuture(new PlatformCallException(service, PlatformCallException.UNREACHABLE,
        "unreachable: " + result.cause().getClass().getSimpleName()));
    }
    var response = result.result();
    return response.statusCode() == 200
      ? Future.succeededFuture(response.bodyAsJsonObject())
      : Future.failedFuture(new PlatformCallException(service, response.statusCode(),
        "answered " + response.statusCode()));
  }

  /** A manager's GET without parameters, as the master realm's service. */
  public Future<JsonObject> get(String service, String url) {
    return get(service, ServiceTokens.MASTER, url, MultiMap.caseInsensitiveMultiMap());
  }

  /**
   * Every page of a manager's collection ({@code limit}/{@code offset}, {@code totalRecords}): the items of
   * {@code arrayName}, in order. Stops at an empty page, so a wrong total cannot loop it.
   */
  public Future<List<JsonObject>> getAll(String service, String url, String arrayName, int pageSize) {
    return page(service, url, arrayName, pageSize, 0, new ArrayList<>());
  }

  private Future<List<JsonObject>> page(String service, String url, String arrayName, int pageSize, int offset,
    List<JsonObject> items) {
    var query = MultiMap.caseInsensitiveMultiMap()
      .add("limit", String.valueOf(pageSize))
      .add("offset", String.valueOf(offset));
    return get(service, ServiceTokens.MASTER, url, query).compose(body -> {
      var page = body.getJsonArray(arrayName, new JsonArray());
      page.forEach(item -> items.add((JsonObject) item));
      int total = body.getInteger("totalRecords", page.size());
      int next = offset + page.size();
      return page.isEmpty() || next >= total
        ? Future.succeededFuture(items)
        : page(service, url, arrayName, pageSize, next, items);
    });
  }
}
