package org.folio.sidecar.crosstenant;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import com.github.benmanes.caffeine.cache.Expiry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineStatsCounter;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.ext.web.client.WebClient;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Duration;
import org.folio.sidecar.config.CacheBudget;
import org.folio.sidecar.config.CacheBudgets;
import org.folio.sidecar.config.ConfigValidator;
import org.folio.sidecar.config.KeycloakConfig;
import org.folio.sidecar.config.TokenConfig;
import org.folio.sidecar.config.UsersConfig;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.platform.PlatformClient;
import org.folio.sidecar.secret.SecretStore;
import org.folio.sidecar.token.KeycloakCallLog;
import org.folio.sidecar.token.KeycloakCalls;
import org.folio.sidecar.token.VerifiedToken;
import org.folio.sidecar.tracing.Tracing;

/**
 * Cross-tenant requests (ALLOW_CROSS_TENANT_REQUESTS, consortia), as upstream: a user token of realm A used for
 * tenant B is introspected in A, the user is looked up in B, and a token for them is obtained in B by token
 * exchange. Every step is cached without {@code exp} in any key, and concurrent misses share one call:
 * introspection per (realm, user, session) for KC_IMPERSONATION_SESSION_CHECK_TTL, the user per (tenant, user) for
 * KC_IMPERSONATION_USERNAME_TTL, the exchanged token per (tenant, user) until shortly before it expires.
 */
@Singleton
public class Impersonation {

  record SessionKey(String realm, String userId, String sessionId) {
  }

  record UserKey(String tenant, String userId) {
  }

  record Exchanged(String token, long lifetimeNanos) {
  }

  private final WebClient client;
  private final KeycloakCalls calls;
  private final KeycloakConfig keycloak;
  private final TokenConfig tokenConfig;
  private final SecretStore secrets;
  private final PlatformClient platform;
  private final String keycloakUrl;
  private final String usersUrl;
  private final AsyncCache<SessionKey, Boolean> active;
  private final AsyncCache<UserKey, String> usernames;
  private final AsyncCache<UserKey, Exchanged> exchanged;

  Impersonation(@Named("keycloak") WebClient client, KeycloakCalls calls, PlatformClient platform,
    KeycloakConfig keycloak,
    TokenConfig tokenConfig, UsersConfig users, SecretStore secrets, MeterRegistry registry, Ticker ticker) {
    var budget = CacheBudgets.impersonation(keycloak);
    long overhead = CacheBudgets.IMPERSONATION_OVERHEAD;
    this.active = measured(budget.<SessionKey, Boolean>apply(Caffeine.newBuilder(),
      (key, active) -> overhead + CacheBudget.bytesOf(key.realm()) + CacheBudget.bytesOf(key.userId())
        + CacheBudget.bytesOf(key.sessionId()))
      .ticker(ticker).expireAfterWrite(keycloak.impersonationSessionCheckTtl()), registry,
      "sidecar.impersonation.introspections");
    this.usernames = measured(budget.<UserKey, String>apply(Caffeine.newBuilder(),
      (key, username) -> overhead + CacheBudget.bytesOf(key.tenant()) + CacheBudget.bytesOf(key.userId())
        + CacheBudget.bytesOf(username))
      .ticker(ticker).expireAfterWrite(keycloak.impersonationUsernameTtl()), registry, "sidecar.impersonation.users");
    this.exchanged = measured(budget.<UserKey, Exchanged>apply(Caffeine.newBuilder(),
      (key, token) -> overhead + CacheBudget.bytesOf(key.tenant()) + CacheBudget.bytesOf(key.userId())
        + CacheBudget.bytesOf(token.token()))
      .ticker(ticker)
      .expireAfter(Expiry.<UserKey, Exchanged>writing((key, token) -> Duration.ofNanos(token.lifetimeNanos()))),
      registry, "sidecar.impersonation.tokens");
    this.client = client;
    this.calls = calls;
    this.keycloak = keycloak;
    this.tokenConfig = tokenConfig;
    this.secrets = secrets;
    this.platform = platform;
    this.keycloakUrl = ConfigValidator.withoutTrailingSlash(keycloak.url());
    this.usersUrl = ConfigValidator.withoutTrailingSlash(users.keycloakUrl());
  }

  private static <K, V> AsyncCache<K, V> measured(Caffeine<? super K, ? super V> builder, MeterRegistry registry,
    String name) {
    var stats = new CaffeineStatsCounter(registry, name);
    @SuppressWarnings("unchecked")
    AsyncCache<K, V> cache = ((Caffeine<K, V>) builder).recordStats(() -> stats).buildAsync();
    stats.registerSizeMetric(cache.synchronous());
    return cache;
  }

  /** A token of {@code tenant} for the user of {@code origin}; fails with 401 when that user's session is over. */
  public Future<String> tokenFor(VerifiedToken origin, String tenant) {
    if (origin.userId() == null) {
      return Future.failedFuture(SidecarError.unauthorized("only user tokens act across tenants"));
    }
    var session = new SessionKey(origin.tenant(), origin.userId(), origin.sessionId());
    var user = new UserKey(tenant, origin.userId());
    return Future
      .fromCompletionStage(active.get(session, (k, e) -> introspect(origin).toCompletionStage().toCompletableFuture()))
      .compose(isActive -> {
        if (!isActive) {
          return Future.failedFuture(SidecarError.unauthorized("token is no longer active"));
        }
        return Future.fromCompletionStage(exchanged.get(user, (k, e) -> Future.fromCompletionStage(
          usernames.get(user, (u, x) -> username(user).toCompletionStage().toCompletableFuture()))
          .compose(username -> exchange(tenant, username)).toCompletionStage().toCompletableFuture()));
      })
      .map(Exchanged::token);
  }

  /**
   * Forgets a session (logout); the next cross-tenant request introspects again. The token obtained for the user
   * in that realm goes too: it may belong to the session that ended.
   */
  public void invalidateSession(String realm, String userId, String sessionId) {
    active.synchronous().invalidate(new SessionKey(realm, userId, sessionId));
    forgetToken(realm, userId);
  }

  /** Forgets every session of a user in a realm and the token obtained for them there (LOGOUT_ALL). */
  public void invalidateUser(String realm, String userId) {
    // a scan, bounded by the cache's size: all-session logouts are rare
    active.synchronous().asMap().keySet()
      .removeIf(key -> key.realm().equals(realm) && key.userId().equals(userId));
    forgetToken(realm, userId);
  }

  /** Drops the token obtained for a user in a tenant (Keycloak refused it, or the user logged out there). */
  public void forgetToken(String tenant, String userId) {
    exchanged.synchronous().invalidate(new UserKey(tenant, userId));
  }

  private Future<Boolean> introspect(VerifiedToken origin) {
    var clientId = origin.tenant() + keycloak.loginClientSuffix();
    long started = System.nanoTime();
    return secret(origin.tenant(), clientId).compose(secret -> calls.send(origin.tenant(), origin.userId(), client
      .postAbs(keycloakUrl + "/realms/" + origin.tenant() + "/protocol/openid-connect/token/introspect"),
      request -> request.sendForm(MultiMap.caseInsensitiveMultiMap().add("grant_type", "client_credentials")
        .add("client_id", clientId).add("client_secret", secret).add("token_type_hint", "requesting_party_token")
        .add("token", origin.raw()))))
      .transform(result -> {
        KeycloakCallLog.outcome("token introspection", origin.tenant(), result, started);
        if (result.failed()) {
          return Future.failedFuture(SidecarError.keycloakUnavailable("cannot introspect: "
            + calls.describe(result.cause())));
        }
        if (result.result().statusCode() != 200) {
          return Future.failedFuture(SidecarError.unauthorized("introspection refused"));
        }
        return Future.succeededFuture(result.result().bodyAsJsonObject().getBoolean("active", false));
      });
  }

  private Future<String> username(UserKey user) {
    var url = usersUrl + "/users-keycloak/users/" + user.userId();
    return platform.get("mod-users-keycloak", user.tenant(), url, MultiMap.caseInsensitiveMultiMap())
      .transform(result -> result.succeeded() && result.result().getString("username") != null
        ? Future.succeededFuture(result.result().getString("username"))
        : Future.failedFuture(SidecarError.forbidden()));
  }

  private Future<Exchanged> exchange(String tenant, String username) {
    var clientId = keycloak.impersonationClient();
    long started = System.nanoTime();
    return secret(tenant, clientId).compose(secret -> calls.send(tenant, username, client
      .postAbs(keycloakUrl + "/realms/" + tenant + "/protocol/openid-connect/token")
      .traceOperation(Tracing.OPERATION_TOKEN),
      request -> request.sendForm(MultiMap.caseInsensitiveMultiMap()
        .add("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange").add("client_id", clientId)
        .add("client_secret", secret).add("requested_subject", username))))
      .transform(result -> {
        KeycloakCallLog.outcome("token exchange", tenant, result, started);
        if (result.failed()) {
          return Future.failedFuture(SidecarError.keycloakUnavailable("cannot exchange the token: "
            + calls.describe(result.cause())));
        }
        if (result.result().statusCode() != 200) {
          return Future.failedFuture(SidecarError.forbidden());
        }
        var body = result.result().bodyAsJsonObject();
        long lifetime = Duration.ofSeconds(body.getLong("expires_in", 60L)).toNanos();
        return Future.succeededFuture(new Exchanged(body.getString("access_token"),
          lifetime - Math.min(Duration.ofSeconds(10).toNanos(), lifetime / 5)));
      });
  }

  private Future<String> secret(String realm, String clientId) {
    var key = tokenConfig.secureStoreEnv() + "_" + realm + "_" + clientId;
    return secrets.secret(key);
  }
}
