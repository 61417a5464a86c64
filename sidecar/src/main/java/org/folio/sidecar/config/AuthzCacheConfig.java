package org.folio.sidecar.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The authorization decision cache. Property {@code sidecar.authz-cache.x-y} is {@code SIDECAR_AUTHZ_CACHE_X_Y}. */
@ConfigMapping(prefix = "sidecar.authz-cache")
public interface AuthzCacheConfig {

  /** How decisions are cached. */
  enum Mode {
    /** Keyed by tenant, caller identity and permission; survives token refresh. */
    OPTIMIZED,
    /** Upstream v3.0.18's cache, exactly: the baseline for comparisons. */
    LEGACY
  }

  /** SIDECAR_AUTHZ_CACHE_MODE: {@code optimized} (default) or {@code legacy}. */
  @WithDefault("optimized")
  Mode mode();

  /** SIDECAR_AUTHZ_CACHE_MAX_SIZE: entries at most; sized for 60+ tenants with thousands of users each. */
  @WithDefault("100000")
  long maxSize();

  /**
   * SIDECAR_AUTHZ_CACHE_HEAP_SHARE: the share of the heap ({@code Runtime.maxMemory()}) the decision cache may
   * fill; with folio-helm-v2's {@code -Xmx64m} this, not the count, bounds it (about 15,000 decisions).
   */
  @WithDefault("0.25")
  double heapShare();

  /**
   * SIDECAR_AUTHZ_CACHE_ALLOW_TTL: how long a grant is trusted before Keycloak is asked again. 10 minutes is
   * upstream's own bound: it trusts a grant until the token expires, up to FOLIO's 600-s token lifetime after it
   * asked (docs/authorization-cache.md has the measurements behind it).
   */
  @WithDefault("10m")
  Duration allowTtl();

  /** SIDECAR_AUTHZ_CACHE_DENY_TTL: how long a denial is remembered; 0 disables negative caching. */
  @WithDefault("10s")
  Duration denyTtl();

  /**
   * SIDECAR_AUTHZ_CACHE_REFRESH_AFTER: a grant used after this age is re-checked in the background while the
   * request is served from cache, so hot entries never expire under a request. A grant's first re-check comes at a
   * random point of its first period instead, so keys met together are not re-checked together.
   */
  @WithDefault("9m")
  Duration refreshAfter();

  /**
   * SIDECAR_AUTHZ_CACHE_REFRESH_JITTER: {@code true} spreads first re-checks over the first period as above;
   * {@code false} re-checks every grant a whole period after Keycloak made it, which makes the number of Keycloak
   * calls in a short window exact (tests that count them) at the price of a re-check wave after a cold start.
   */
  @WithDefault("true")
  boolean refreshJitter();

  /**
   * SIDECAR_AUTHZ_CACHE_MAX_STALENESS: while Keycloak is unreachable or slow, expired grants keep serving this much
   * longer.
   */
  @WithDefault("10m")
  Duration maxStaleness();

  /**
   * SIDECAR_AUTHZ_CACHE_STALE_WAIT: a request whose grant is past its TTL waits this long for Keycloak's re-check
   * (a warm Keycloak answers in milliseconds, so a revoked grant is still refused at once); a slower Keycloak does
   * not hold it longer: the grant serves and the re-check's late answer replaces it. Requests arriving while a
   * re-check is running do not wait at all.
   */
  @WithDefault("500ms")
  Duration staleWait();

  /**
   * SIDECAR_AUTHZ_CACHE_ENDED_SESSIONS_MAX_SIZE: how many ended sessions (logout events, Keycloak's "not active"
   * answers) and users logged out everywhere are remembered at most, each; decisions are kept per user, so these
   * are what refuses a token of an ended session. Past the bound the least used are forgotten, and such a
   * session's token is refused again at its next Keycloak call.
   */
  @WithDefault("100000")
  long endedSessionsMaxSize();

  /**
   * SIDECAR_AUTHZ_CACHE_ENDED_SESSION_TTL: how long an ended session is remembered: the longest access token
   * lifespan of the realms (FOLIO's {@code accessTokenLifespan}, 600 s), after which every token of the session
   * has expired and is refused by its signature check.
   */
  @WithDefault("10m")
  Duration endedSessionTtl();

  /**
   * SIDECAR_AUTHZ_CACHE_CLOCK_SKEW: how far apart the clocks of Keycloak and mod-login-keycloak may be. A token of
   * a user issued within this of a logout-all of the user is neither refused nor served from cache: Keycloak
   * decides it, as it cannot be told whether it is of a session the logout-all ended or of a later login.
   */
  @WithDefault("10s")
  Duration clockSkew();

  /**
   * KC_AUTHORIZATION_CACHE_MAX_SIZE: legacy mode's size bound; upstream v3.0.18's application.properties says 250
   * (its README's 50 is stale: that is its token cache's size).
   */
  @WithDefault("250")
  long legacyMaxSize();

  /** KC_AUTHORIZATION_CACHE_TTL_OFFSET (ms): legacy mode subtracts this from the token's exp (upstream: 500). */
  @WithDefault("500")
  long legacyTtlOffset();
}
