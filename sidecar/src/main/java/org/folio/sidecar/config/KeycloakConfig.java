package org.folio.sidecar.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithConverter;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** How the sidecar reaches Keycloak and validates its tokens. Property {@code kc.x-y} is variable {@code KC_X_Y}. */
@ConfigMapping(prefix = "kc")
public interface KeycloakConfig {

  /**
   * KC_URL: Keycloak's base URL. With KC_URI_VALIDATION_ENABLED (the default) a token's issuer must equal
   * {@code KC_URL/realms/<tenant>} exactly. Realm keys always come from here (or KC_JWKS_BASE_URL).
   */
  @WithDefault("http://keycloak:8080")
  String url();

  /**
   * KC_URI_VALIDATION_ENABLED (upstream's): true, a token's issuer must be {@code KC_URL/realms/<tenant>}; false,
   * for tokens that carry Keycloak's public address while KC_URL is the in-cluster one (folio-helm-v2 sets it),
   * the issuer's origin is not compared with KC_URL (see KC_ISSUER_ORIGINS) but its path must still be
   * {@code /realms/<tenant>}. Unlike upstream, keys never come from the issuer's own URL.
   */
  @WithDefault("true")
  boolean uriValidationEnabled();

  /**
   * KC_ISSUER_ORIGINS (this sidecar's own): with KC_URI_VALIDATION_ENABLED=false, the issuer origins
   * ({@code scheme://host[:port]}, comma-separated) accepted besides KC_URL's; unset, any origin.
   */
  Optional<List<String>> issuerOrigins();

  /** KC_JWKS_BASE_URL: where to fetch realm keys from when it differs from KC_URL (e.g. an internal address). */
  Optional<String> jwksBaseUrl();

  /** KC_LOGIN_CLIENT_SUFFIX: the UMA audience is {@code <tenant><suffix>}. */
  @WithDefault("-login-application")
  String loginClientSuffix();

  /**
   * KC_REQUEST_TIMEOUT (or upstream's KC_REQUEST_TIMEOUT_MS, in milliseconds; this one wins when both are set):
   * the deadline of one whole Keycloak call (UMA decision, keys, tokens), so what a user waits at most for a
   * decision nothing is cached for. Above a cold Keycloak's first decisions on a loaded machine (measured by
   * load/uma-latency.sh, docs/configuration.md), as upstream's MODSIDECAR-199 default.
   */
  @WithDefault("15s")
  Duration requestTimeout();

  /**
   * KC_CONNECT_TIMEOUT: limit for opening a TCP connection to Keycloak, for an address that drops the connection
   * attempt (a refused one fails at once). Above one lost SYN's 1-s retransmission.
   */
  @WithDefault("2s")
  Duration connectTimeout();

  /**
   * KC_READ_IDLE_TIMEOUT (or upstream's KC_CLIENT_READ_IDLE_TIMEOUT, in seconds): a connection to Keycloak on
   * which nothing arrives this long is closed, in a call (never later than KC_REQUEST_TIMEOUT) or idle in the
   * pool, so a half-open connection left by a Keycloak pod that died is not reused.
   */
  @WithDefault("60s")
  Duration readIdleTimeout();

  /**
   * KC_ERROR_LOG_INTERVAL: Keycloak failures that are not decisions (timeout, refused, error, misconfigured) are
   * logged as one WARN line per cause per this interval with the reason; every one is counted in
   * {@code sidecar_keycloak_decisions_seconds_count{outcome}}.
   */
  @WithDefault("1m")
  Duration errorLogInterval();

  /** KC_JWT_CLOCK_SKEW: tolerated clock difference when checking {@code exp}. */
  @WithDefault("10s")
  Duration jwtClockSkew();

  /**
   * KC_JWKS_MIN_REFETCH_INTERVAL: a token with an unknown key id triggers a key refetch for its realm at most
   * this often, so forged {@code kid}s cannot make the sidecar hammer Keycloak.
   */
  @WithDefault("10s")
  Duration jwksMinRefetchInterval();

  /**
   * KC_JWKS_NEW_REALM_FETCHES: at most this many realms not yet known have their keys fetched per
   * KC_JWKS_MIN_REFETCH_INTERVAL; tokens naming further unknown realms are refused (401) without asking
   * Keycloak, so tokens naming made-up realms cannot turn into a stream of key fetches.
   */
  @WithDefault("100")
  int jwksNewRealmFetches();

  /**
   * KC_JWKS_NEW_REALM_FETCHES_PER_SOURCE: of those, at most this many for one caller address per
   * KC_JWKS_MIN_REFETCH_INTERVAL, so one flooding client cannot spend the whole budget. Realms already loaded once
   * and entitled tenants' realms are fetched outside both budgets.
   */
  @WithDefault("10")
  int jwksNewRealmFetchesPerSource();

  /** KC_JWKS_NEW_REALM_SOURCES: caller addresses whose new-realm fetches are counted at once (the oldest go first). */
  @WithDefault("10000")
  int jwksNewRealmSources();

  /**
   * KC_UNKNOWN_REALM_LOG_INTERVAL: tokens refused for naming a realm Keycloak does not know, or for coming beyond
   * the new-realm budgets, are written as one WARN line per interval with their count, not one per request.
   */
  @WithDefault("1m")
  Duration unknownRealmLogInterval();

  /**
   * KC_JWKS_REFRESH_INTERVAL: keys of a realm are fetched again after this long. A bare number is minutes, as
   * upstream ({@code 60}); a duration ({@code 30m}, {@code PT1H}) is also accepted.
   */
  @WithDefault("60")
  @WithConverter(MinutesConverter.class)
  Duration jwksRefreshInterval();

  /**
   * KC_VERIFIED_TOKEN_CACHE_SIZE: tokens whose signature was verified, remembered by their exact text until
   * they expire, so a token used for many requests is checked cryptographically once (about 2 KB each).
   */
  @WithDefault("10000")
  long verifiedTokenCacheSize();

  /** KC_VERIFIED_TOKEN_CACHE_HEAP_SHARE: the share of the heap verified tokens may fill. */
  @WithDefault("0.10")
  double verifiedTokenCacheHeapShare();

  /** KC_MAX_POOL_SIZE: connections kept to Keycloak (upstream's Keycloak client: 50). */
  @WithDefault("50")
  int maxPoolSize();

  /**
   * KC_MAX_CONCURRENT_CALLS: Keycloak calls (decisions, tokens, keys) one sidecar has in flight at most; later ones
   * wait in order, their wait counted in KC_REQUEST_TIMEOUT. A fleet restarted with empty caches misses every key at
   * once: this bounds how many of those calls each sidecar sends Keycloak together.
   */
  @WithDefault("16")
  int maxConcurrentCalls();

  /**
   * KC_MAX_QUEUED_CALLS: Keycloak calls that may wait for KC_MAX_CONCURRENT_CALLS at most; past that a call fails
   * at once (a decision answers 503, outcome {@code timeout}) instead of adding to a wait it would likely time out
   * in.
   */
  @WithDefault("1000")
  int maxQueuedCalls();

  /**
   * KC_REALMS_MAX_SIZE: realms whose keys are kept; one per tenant and master. Realms Keycloak does not know are
   * remembered apart (as many again at most), so made-up realm names never push real ones out.
   */
  @WithDefault("10000")
  int realmsMaxSize();

  /** SIDECAR_IMPERSONATION_CLIENT_NAME: the client that exchanges tokens for cross-tenant requests. */
  @WithDefault("impersonation-client")
  String impersonationClient();

  /** KC_IMPERSONATION_CACHE_MAX_SIZE: bound of each cross-tenant cache (sessions, usernames, exchanged tokens). */
  @WithDefault("100000")
  long impersonationCacheMaxSize();

  /** KC_IMPERSONATION_CACHE_HEAP_SHARE: the share of the heap the three cross-tenant caches may fill together. */
  @WithDefault("0.05")
  double impersonationCacheHeapShare();

  /**
   * KC_IMPERSONATION_SESSION_CHECK_TTL: how long a caller's session, found active by introspection, is taken as
   * active; a logout reaches cross-tenant requests at most this late.
   */
  @WithDefault("1m")
  Duration impersonationSessionCheckTtl();

  /** KC_IMPERSONATION_USERNAME_TTL: how long a user id's username (from mod-users-keycloak) is reused. */
  @WithDefault("5m")
  Duration impersonationUsernameTtl();
}
