package org.folio.sidecar.token;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.ext.web.client.WebClient;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.folio.sidecar.config.ConfigValidator;
import org.folio.sidecar.config.KeycloakConfig;
import org.folio.sidecar.config.TokenConfig;
import org.folio.sidecar.error.SidecarError;

/**
 * One live client-credentials token per realm, shared by every caller: the tenant's module-access client for
 * egress ({@code x-system-token}), the master realm's admin client for mgr-* calls. Concurrent misses share
 * one Keycloak call; a token in use is renewed in the background once SIDECAR_TOKEN_REFRESH_FRACTION of its
 * lifetime has passed, and never handed out within a safety margin of its expiry.
 */
@Singleton
public class ServiceTokens {

  public static final String MASTER = "master";

  /** A token and the times it must be renewed (in the background) and dropped (always). */
  record ServiceToken(String value, long refreshAtNanos, long lifetimeNanos, AtomicBoolean refreshing) {
  }

  private final WebClient client;
  private final KeycloakConfig keycloak;
  private final TokenConfig config;
  private final SecretStore secrets;
  private final MeterRegistry registry;
  private final String baseUrl;
  private final AsyncCache<String, ServiceToken> tokens;

  ServiceTokens(@Named("keycloak") WebClient client, KeycloakConfig keycloak, TokenConfig config, SecretStore secrets,
    MeterRegistry registry) {
    this.client = client;
    this.keycloak = keycloak;
    this.config = config;
    this.secrets = secrets;
    this.registry = registry;
    this.baseUrl = ConfigValidator.withoutTrailingSlash(keycloak.url());
    this.tokens = Caffeine.newBuilder()
      .maximumSize(config.maxCapacity())
      .expireAfter(Expiry.<String, ServiceToken>writing((realm, token) -> Duration.ofNanos(token.lifetimeNanos())))
      .buildAsync();
    registry.gauge("sidecar.tokens.cached", tokens, cache -> cache.synchronous().estimatedSize());
  }

  /** The realm's current token, acquiring one if there is none. */
  public Future<String> token(String realm) {
    var present = tokens.asMap().get(realm);
    if (present != null && present.isDone() && !present.isCompletedExceptionally()) {
      var token = present.join();
      if (System.nanoTime() >= token.refreshAtNanos() && token.refreshing().compareAndSet(false, true)) {
        acquire(realm, "refresh").onComplete(result -> {
          if (result.succeeded()) {
            tokens.put(realm, CompletableFuture.completedFuture(result.result()));
          } else {
            token.refreshing().set(false);
          }
        });
      }
      return Future.succeededFuture(token.value());
    }
    return Future.fromCompletionStage(tokens.get(realm, (r, executor) ->
      acquire(r, "acquire").toCompletionStage().toCompletableFuture())).map(ServiceToken::value);
  }

  /** Drops a realm's token, e.g. after a target refused it; the next call acquires a new one. */
  public void evict(String realm) {
    tokens.synchronous().invalidate(realm);
  }

  private Future<ServiceToken> acquire(String realm, String kind) {
    var clientId = MASTER.equals(realm) ? config.adminClientId() : config.serviceClientId();
    var secretKey = config.secureStoreEnv() + "_" + realm + "_" + clientId;
    var secret = secrets.secret(secretKey);
    if (secret.isEmpty()) {
      return Future.failedFuture(SidecarError.internal("no secret " + secretKey + " in the secret store"));
    }
    var form = MultiMap.caseInsensitiveMultiMap()
      .add("grant_type", "client_credentials").add("client_id", clientId).add("client_secret", secret.get());
    long requestedAt = System.nanoTime();
    return client.postAbs(baseUrl + "/realms/" + realm + "/protocol/openid-connect/token")
      .timeout(keycloak.requestTimeout().toMillis())
      .sendForm(form)
      .transform(result -> {
        if (result.failed()) {
          return Future.failedFuture(SidecarError.keycloakUnavailable("cannot obtain a service token: "
            + result.cause().getClass().getSimpleName()));
        }
        var response = result.result();
        if (response.statusCode() != 200) {
          return Future.failedFuture(response.statusCode() >= 500
            ? SidecarError.keycloakUnavailable("Keycloak answered " + response.statusCode() + " for a service token")
            : SidecarError.unauthorized("Keycloak refused the service token request for " + realm));
        }
        var body = response.bodyAsJsonObject();
        long lifetime = Duration.ofSeconds(body.getLong("expires_in", 60L)).toNanos();
        // never hand out a token that could expire in flight
        long usable = lifetime - Math.min(Duration.ofSeconds(5).toNanos(), lifetime / 10);
        Counter.builder("sidecar.tokens.requests").tag("tenant", realm).tag("kind", kind)
          .register(registry).increment();
        return Future.succeededFuture(new ServiceToken(body.getString("access_token"),
          requestedAt + (long) (lifetime * config.refreshFraction()), usable - (System.nanoTime() - requestedAt),
          new AtomicBoolean()));
      });
  }
}
