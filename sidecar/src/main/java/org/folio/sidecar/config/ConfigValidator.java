package org.folio.sidecar.config;

import io.quarkus.runtime.Startup;
import io.quarkus.runtime.configuration.ConfigurationException;
import jakarta.annotation.PostConstruct;
import jakarta.inject.Singleton;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Checks the configuration once at start-up so that a bad value stops the sidecar with a message naming the
 * environment variable, instead of surfacing as odd failures at request time.
 */
// before every other start-up observer: those call Keycloak and the managers, and a bad URL would otherwise
// surface after their retries as a stack trace that names no variable
@Startup(Integer.MIN_VALUE)
@Singleton
public class ConfigValidator {

  private static final double MAX_CACHE_SHARE = 0.8;

  private final ModuleConfig module;
  private final KeycloakConfig keycloak;
  private final SidecarConfig sidecar;
  private final SecretStoreConfig secrets;
  private final AuthzCacheConfig cache;
  private final PlatformConfig platform;
  private final TlsConfig tls;
  private final UsersConfig users;
  private final EdgeConfig edge;
  private final EventsConfig events;
  private final AdminConfig admin;

  ConfigValidator(ModuleConfig module, KeycloakConfig keycloak, SidecarConfig sidecar, SecretStoreConfig secrets,
    AuthzCacheConfig cache, PlatformConfig platform, TlsConfig tls, UsersConfig users, EdgeConfig edge,
    EventsConfig events, AdminConfig admin) {
    this.events = events;
    this.admin = admin;
    this.users = users;
    this.edge = edge;
    this.module = module;
    this.keycloak = keycloak;
    this.sidecar = sidecar;
    this.secrets = secrets;
    this.cache = cache;
    this.platform = platform;
    this.tls = tls;
  }

  @PostConstruct
  void validate() {
    var problems = new ArrayList<String>();
    requireHttpUrl("MODULE_URL", module.url(), problems);
    requireHttpUrl("KC_URL", keycloak.url(), problems);
    requireHttpUrl("SIDECAR_URL", sidecar.url(), problems);
    keycloak.jwksBaseUrl().ifPresent(url -> requireHttpUrl("KC_JWKS_BASE_URL", url, problems));
    keycloak.issuerOrigins().ifPresent(origins -> origins.forEach(origin -> requireOrigin(origin.trim(), problems)));
    requirePositive("KC_JWKS_NEW_REALM_FETCHES", keycloak.jwksNewRealmFetches(), problems);
    requirePositive("KC_JWKS_NEW_REALM_FETCHES_PER_SOURCE", keycloak.jwksNewRealmFetchesPerSource(), problems);
    requirePositive("KC_JWKS_NEW_REALM_SOURCES", keycloak.jwksNewRealmSources(), problems);
    requirePositive("KC_UNKNOWN_REALM_LOG_INTERVAL", keycloak.unknownRealmLogInterval().toMillis(), problems);
    requirePositive("KC_JWKS_REFRESH_INTERVAL", keycloak.jwksRefreshInterval().toMillis(), problems);
    // the consumer polls for as long: zero would spin
    requirePositive("SIDECAR_KAFKA_FETCH_MAX_WAIT", events.fetchMaxWait().toMillis(), problems);
    if (module.name().isBlank()) {
      problems.add("MODULE_NAME must not be blank");
    }
    if (!module.healthPath().startsWith("/")) {
      problems.add("MODULE_HEALTH_PATH must start with '/', got '" + module.healthPath() + "'");
    }
    if (sidecar.requestTimeout() <= 0) {
      problems.add("REQUEST_TIMEOUT must be a positive number of milliseconds, got " + sidecar.requestTimeout());
    }
    if (sidecar.maxBodySize() <= 0) {
      problems.add("SIDECAR_MAX_BODY_SIZE must be a positive number of bytes, got " + sidecar.maxBodySize());
    }
    requirePositive("SIDECAR_SEND_TIMEOUT", sidecar.sendTimeout().toMillis(), problems);
    requirePositive("SIDECAR_FORWARD_MAX_CONNECTIONS_PER_CALLER", sidecar.forwardMaxConnectionsPerCaller(), problems);
    requirePositive("KC_REQUEST_TIMEOUT", keycloak.requestTimeout().toMillis(), problems);
    requirePositive("KC_CONNECT_TIMEOUT", keycloak.connectTimeout().toMillis(), problems);
    requirePositive("KC_READ_IDLE_TIMEOUT", keycloak.readIdleTimeout().toMillis(), problems);
    requirePositive("KC_ERROR_LOG_INTERVAL", keycloak.errorLogInterval().toMillis(), problems);
    requirePositive("KC_MAX_POOL_SIZE", keycloak.maxPoolSize(), problems);
    requirePositive("KC_MAX_CONCURRENT_CALLS", keycloak.maxConcurrentCalls(), problems);
    requirePositive("KC_MAX_QUEUED_CALLS", keycloak.maxQueuedCalls(), problems);
    requirePositive("SIDECAR_MANAGER_TIMEOUT", platform.timeout().toMillis(), problems);
    requirePositive("SIDECAR_PLATFORM_MAX_POOL_SIZE", platform.maxPoolSize(), problems);
    requirePositive("SIDECAR_REQUEST_HEAD_TIMEOUT", edge.requestHeadTimeout().toMillis(), problems);
    requirePositive("SIDECAR_REQUEST_BODY_TIMEOUT", edge.requestBodyTimeout().toMillis(), problems);
    if (edge.sendBufferSize() < 0 || edge.sendBufferSize() > Integer.MAX_VALUE) {
      problems.add("SIDECAR_SEND_BUFFER_SIZE must be 0 (left to the kernel) or a size up to 2G, got "
        + edge.sendBufferSize());
    }
    readableIfSet("SC_CLIENT_TLS_TRUSTSTORE_PATH", tls.forwarding().path(), problems);
    readableIfSet("KC_CLIENT_TLS_TRUSTSTORE_PATH", tls.keycloak().path(), problems);
    readableIfSet("MGR_CLIENT_TLS_TRUSTSTORE_PATH", tls.platform().path(), problems);
    readableIfSet("GW_CLIENT_TLS_TRUSTSTORE_PATH", tls.gateway().path(), problems);
    validateCache(problems);
    validateAdmin(problems);
    validateHeapShares(problems);
    validateSecretStore(problems);
    if (!problems.isEmpty()) {
      // Quarkus prints this exception's message alone, without a stack trace, and exits
      throw new ConfigurationException("Invalid configuration: " + String.join("; ", problems));
    }
  }

  /** The decision cache's times must nest: refreshed before it expires, a denial kept no longer than a grant. */
  private void validateCache(List<String> problems) {
    requirePositive("SIDECAR_AUTHZ_CACHE_MAX_SIZE", cache.maxSize(), problems);
    requirePositive("SIDECAR_AUTHZ_CACHE_ALLOW_TTL", cache.allowTtl().toMillis(), problems);
    requirePositive("SIDECAR_AUTHZ_CACHE_ENDED_SESSIONS_MAX_SIZE", cache.endedSessionsMaxSize(), problems);
    requirePositive("SIDECAR_AUTHZ_CACHE_ENDED_SESSION_TTL", cache.endedSessionTtl().toMillis(), problems);
    if (cache.clockSkew().isNegative()) {
      problems.add("SIDECAR_AUTHZ_CACHE_CLOCK_SKEW (" + cache.clockSkew() + ") must not be negative");
    }
    if (cache.refreshAfter().compareTo(cache.allowTtl()) >= 0) {
      problems.add("SIDECAR_AUTHZ_CACHE_REFRESH_AFTER (" + cache.refreshAfter() + ") must be shorter than "
        + "SIDECAR_AUTHZ_CACHE_ALLOW_TTL (" + cache.allowTtl() + ")");
    }
    if (cache.denyTtl().compareTo(cache.allowTtl()) > 0) {
      problems.add("SIDECAR_AUTHZ_CACHE_DENY_TTL (" + cache.denyTtl() + ") must not be longer than "
        + "SIDECAR_AUTHZ_CACHE_ALLOW_TTL (" + cache.allowTtl() + ")");
    }
  }

  /** The admin API's guessing and audit bounds: zero would lock every caller out, or stop the audit. */
  private void validateAdmin(List<String> problems) {
    requirePositive("SIDECAR_ADMIN_FAILURES_BEFORE_BACKOFF", admin.failuresBeforeBackoff(), problems);
    requirePositive("SIDECAR_ADMIN_FAILURE_BACKOFF", admin.failureBackoff().toMillis(), problems);
    requirePositive("SIDECAR_ADMIN_FAILURE_ADDRESSES", admin.failureAddresses(), problems);
    requirePositive("SIDECAR_ADMIN_AUDIT_REFUSED_LINES", admin.auditRefusedLines(), problems);
    requirePositive("SIDECAR_ADMIN_AUDIT_INTERVAL", admin.auditInterval().toMillis(), problems);
    if (admin.failureBackoffMax().compareTo(admin.failureBackoff()) < 0) {
      problems.add("SIDECAR_ADMIN_FAILURE_BACKOFF_MAX (" + admin.failureBackoffMax() + ") must not be shorter than "
        + "SIDECAR_ADMIN_FAILURE_BACKOFF (" + admin.failureBackoff() + ")");
    }
  }

  /** Each cache's heap share is a fraction, and together they leave room for requests in flight. */
  private void validateHeapShares(List<String> problems) {
    var shares = new java.util.LinkedHashMap<String, Double>();
    shares.put("SIDECAR_AUTHZ_CACHE_HEAP_SHARE", cache.heapShare());
    shares.put("KC_VERIFIED_TOKEN_CACHE_HEAP_SHARE", keycloak.verifiedTokenCacheHeapShare());
    shares.put("KC_IMPERSONATION_CACHE_HEAP_SHARE", keycloak.impersonationCacheHeapShare());
    shares.put("SIDECAR_DESIRED_PERMISSIONS_HEAP_SHARE", users.permissionsCacheHeapShare());
    shares.forEach((variable, share) -> {
      if (!(share > 0 && share < 1)) {
        problems.add(variable + " must be a fraction between 0 and 1, got " + share);
      }
    });
    double total = shares.values().stream().mapToDouble(Double::doubleValue).sum();
    if (total > MAX_CACHE_SHARE) {
      problems.add("the cache heap shares (" + String.join(", ", shares.keySet()) + ") add up to " + total
        + "; at most " + MAX_CACHE_SHARE + " leaves the rest of the heap for requests");
    }
  }

  /** The variables the chosen secret store needs, named as upstream names them. */
  private void validateSecretStore(List<String> problems) {
    var type = secretStoreType(secrets.type());
    if (type.isEmpty()) {
      problems.add("SECRET_STORE_TYPE must be one of EPHEMERAL, AWS_SSM, VAULT, FSSP, got '" + secrets.type() + "'");
      return;
    }
    switch (type.get()) {
      case EPHEMERAL -> {
      }
      case AWS_SSM -> {
        var aws = secrets.awsSsm();
        require("SECRET_STORE_AWS_SSM_REGION", aws.region(), problems);
        if (!aws.useIam()) {
          require("SECRET_STORE_AWS_SSM_ACCESS_KEY", aws.accessKey(), problems);
          require("SECRET_STORE_AWS_SSM_SECRET_KEY", aws.secretKey(), problems);
          aws.ecsCredentialsEndpoint()
            .ifPresent(url -> requireHttpUrl("SECRET_STORE_AWS_SSM_ECS_CREDENTIALS_ENDPOINT", url, problems));
        }
        if (aws.fipsEnabled()) {
          requireReadable("SECRET_STORE_AWS_SSM_TRUSTSTORE_PATH", aws.trustStorePath(), problems);
        }
      }
      case VAULT -> {
        var vault = secrets.vault();
        require("SECRET_STORE_VAULT_ADDRESS", vault.address(), problems);
        vault.address().ifPresent(url -> requireHttpUrl("SECRET_STORE_VAULT_ADDRESS", url, problems));
        require("SECRET_STORE_VAULT_TOKEN", vault.token(), problems);
        readableIfSet("SECRET_STORE_VAULT_PEM_FILE_PATH", vault.pemFilePath(), problems);
        readableIfSet("SECRET_STORE_VAULT_TRUSTSTORE_FILE_PATH", vault.truststoreFilePath(), problems);
        readableIfSet("SECRET_STORE_VAULT_KEYSTORE_FILE_PATH", vault.keystoreFilePath(), problems);
      }
      case FSSP -> {
        var fssp = secrets.fssp();
        require("SECRET_STORE_FSSP_ADDRESS", fssp.address(), problems);
        fssp.address().ifPresent(url -> requireHttpUrl("SECRET_STORE_FSSP_ADDRESS", url, problems));
        readableIfSet("SECRET_STORE_FSSP_KEYSTORE_PATH", fssp.keyStorePath(), problems);
        readableIfSet("SECRET_STORE_FSSP_TRUSTSTORE_PATH", fssp.trustStorePath(), problems);
      }
    }
    requirePositive("SIDECAR_SECRET_CACHE_TTL", secrets.cacheTtl().toMillis(), problems);
  }

  /** The store type named by SECRET_STORE_TYPE (any case), if it is one. */
  public static Optional<SecretStoreConfig.Type> secretStoreType(String value) {
    for (var type : SecretStoreConfig.Type.values()) {
      if (type.name().equalsIgnoreCase(value.trim())) {
        return Optional.of(type);
      }
    }
    return Optional.empty();
  }

  private static void require(String variable, Optional<String> value, List<String> problems) {
    if (value.filter(v -> !v.isBlank()).isEmpty()) {
      problems.add(variable + " is required for this SECRET_STORE_TYPE");
    }
  }

  private static void requireReadable(String variable, Optional<String> path, List<String> problems) {
    if (path.filter(p -> Files.isReadable(Path.of(p))).isEmpty()) {
      problems.add(variable + " must name a readable file, got '" + path.orElse("") + "'");
    }
  }

  private static void readableIfSet(String variable, Optional<String> path, List<String> problems) {
    if (path.filter(p -> !p.isBlank()).isPresent()) {
      requireReadable(variable, path, problems);
    }
  }

  static void requireHttpUrl(String variable, String value, List<String> problems) {
    parseHttpUrl(value).ifPresentOrElse(u -> {
    },
      () -> problems.add(variable + " must be an absolute http(s) URL, got '" + value + "'"));
  }

  private static void requireOrigin(String origin, List<String> problems) {
    var uri = parseHttpUrl(origin);
    if (uri.isEmpty() || !(uri.get().getRawPath() == null || uri.get().getRawPath().isEmpty())
      || uri.get().getRawQuery() != null) {
      problems.add("KC_ISSUER_ORIGINS entries must be scheme://host[:port], got '" + origin + "'");
    }
  }

  static void requirePositive(String variable, long value, List<String> problems) {
    if (value <= 0) {
      problems.add(variable + " must be positive");
    }
  }

  public static Optional<URI> parseHttpUrl(String value) {
    try {
      var uri = URI.create(value);
      var scheme = uri.getScheme();
      if (uri.getHost() == null || !("http".equals(scheme) || "https".equals(scheme))) {
        return Optional.empty();
      }
      return Optional.of(uri);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** A configured base URL without its trailing slash, so paths can be appended. */
  public static String withoutTrailingSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }
}
