package org.folio.sidecar.token;

import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Singleton;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.config.TokenConfig;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.secret.SecretStore;

/**
 * One live client-credentials token per realm, shared by every caller: the tenant's module-access client for
 * egress ({@code x-system-token}) and mod-users-keycloak, and, in a cache of its own that egress never reads, the
 * master realm's admin client for the sidecar's own mgr-* calls. Renewed ahead of expiry
 * once SIDECAR_TOKEN_REFRESH_FRACTION of its lifetime has passed; in the legacy cache mode, kept as upstream
 * v3.0.18 keeps them instead (see {@link SharedTokens.Policy}).
 */
@Singleton
public class ServiceTokens {

  public static final String MASTER = "master";
  private static final long UPSTREAM_MAX_TENANTS = 50;

  private final TokenConfig config;
  private final SecretStore secrets;
  private final TokenEndpoint endpoint;
  private final SharedTokens tokens;
  private final SharedTokens adminTokens;
  private final long refusedMinAgeNanos;

  ServiceTokens(TokenEndpoint endpoint, TokenConfig config, AuthzCacheConfig cache, SecretStore secrets,
    MeterRegistry registry, Ticker ticker) {
    this.endpoint = endpoint;
    this.config = config;
    this.secrets = secrets;
    this.refusedMinAgeNanos = config.refusedTokenMinAge().toNanos();
    // the legacy baseline also caches service tokens as upstream v3.0.18 does (its 50-tenant default)
    var policy = cache.mode() == AuthzCacheConfig.Mode.LEGACY
      ? SharedTokens.Policy.upstreamV3(UPSTREAM_MAX_TENANTS)
      : new SharedTokens.Policy(config.maxCapacity(), config.refreshFraction(), false);
    this.tokens = new SharedTokens(tenant -> obtain(tenant, config.serviceClientId()), policy, registry,
      "sidecar.tokens", ticker);
    this.adminTokens = new SharedTokens(realm -> obtain(realm, config.adminClientId()),
      new SharedTokens.Policy(1, policy.refreshFraction(), policy.upstream()), registry, "sidecar.tokens.admin",
      ticker);
  }

  /**
   * The tenant's module-access token, acquiring one if there is none; never for {@link #MASTER}, whose only
   * client here is the platform's administrator.
   */
  public Future<String> token(String tenant) {
    if (MASTER.equals(tenant)) {
      return Future.failedFuture(SidecarError.tenantNotEnabled(tenant));
    }
    return tokens.token(tenant);
  }

  /** The token for the sidecar's own call to a manager ({@link #MASTER}: the admin client) or a tenant's module. */
  public Future<String> platformToken(String realm) {
    return MASTER.equals(realm) ? adminTokens.token(MASTER) : tokens.token(realm);
  }

  /** Drops a realm's token, e.g. after a target refused it; the next call acquires a new one. */
  public void evict(String realm) {
    if (MASTER.equals(realm)) {
      adminTokens.evict(realm);
    } else {
      tokens.evict(realm);
    }
  }

  /**
   * A target answered 401 to a request carrying the realm's token: drops the token if it is old enough to have
   * been the reason (SIDECAR_REFUSED_TOKEN_MIN_AGE) and says whether it did. A younger token stays: the 401 was about
   * something else (the user's token, the target itself) and is the caller's to see.
   */
  public boolean evictRefused(String realm) {
    return tokens.evictIfOlderThan(realm, refusedMinAgeNanos);
  }

  private Future<JsonObject> obtain(String realm, String clientId) {
    var secretKey = config.secureStoreEnv() + "_" + realm + "_" + clientId;
    return secrets.secret(secretKey).compose(secret -> endpoint.request(realm, MultiMap.caseInsensitiveMultiMap()
      .add("grant_type", "client_credentials").add("client_id", clientId).add("client_secret", secret),
      "service token"))
      .onFailure(error -> secrets.forgetWhenRefused(error, secretKey));
  }
}
