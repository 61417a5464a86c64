package org.folio.sidecar.config;

import io.quarkus.runtime.Startup;
import jakarta.annotation.PostConstruct;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * The heap budgets of the caches callers can grow, in one place so that each cache and the start-up line agree.
 * Typical entry sizes are what the caches' weighers estimate for FOLIO's usual keys (UUID users and sessions,
 * 600-character-and-more tokens); they only explain the line, the weighers measure every entry.
 */
@Startup
@Singleton
public class CacheBudgets {

  private static final Logger LOGGER = Logger.getLogger(CacheBudgets.class);

  /** A decision: the key's five strings plus the cache's node, future, record and three index entries. */
  public static final long DECISION_OVERHEAD = 800;
  public static final long TYPICAL_DECISION = 1_100;
  /** A verified token: its text (the key) and the claims' strings. */
  public static final long VERIFIED_TOKEN_OVERHEAD = 500;
  public static final long TYPICAL_VERIFIED_TOKEN = 2_000;
  public static final long DESIRED_PERMISSIONS_OVERHEAD = 300;
  public static final long TYPICAL_DESIRED_PERMISSIONS = 1_000;
  public static final long IMPERSONATION_OVERHEAD = 300;
  public static final long TYPICAL_IMPERSONATION = 1_500;

  private final AuthzCacheConfig authz;
  private final KeycloakConfig keycloak;
  private final UsersConfig users;

  CacheBudgets(AuthzCacheConfig authz, KeycloakConfig keycloak, UsersConfig users) {
    this.authz = authz;
    this.keycloak = keycloak;
    this.users = users;
  }

  public static CacheBudget decisions(AuthzCacheConfig config) {
    long count = config.mode() == AuthzCacheConfig.Mode.LEGACY ? config.legacyMaxSize() : config.maxSize();
    return CacheBudget.of("decisions", config.heapShare(), count, TYPICAL_DECISION);
  }

  public static CacheBudget verifiedTokens(KeycloakConfig config) {
    return CacheBudget.of("verified tokens", config.verifiedTokenCacheHeapShare(), config.verifiedTokenCacheSize(),
      TYPICAL_VERIFIED_TOKEN);
  }

  public static CacheBudget desiredPermissions(UsersConfig config) {
    return CacheBudget.of("desired permissions", config.permissionsCacheHeapShare(),
      config.permissionsCacheMaxSize(), TYPICAL_DESIRED_PERMISSIONS);
  }

  /** Each of the three cross-tenant caches (sessions, usernames, exchanged tokens) gets a third of the share. */
  public static CacheBudget impersonation(KeycloakConfig config) {
    return CacheBudget.of("impersonation (each of 3)", config.impersonationCacheHeapShare() / 3,
      config.impersonationCacheMaxSize(), TYPICAL_IMPERSONATION);
  }

  @PostConstruct
  void report() {
    var lines = List.of(describe(decisions(authz)), describe(verifiedTokens(keycloak)),
      describe(desiredPermissions(users)), describe(impersonation(keycloak)));
    LOGGER.infof("Cache bounds for a heap of %d MiB (Runtime.maxMemory()): %s; where memory binds an entry "
      + "weighs its estimated bytes, and the count variables stay upper limits", Runtime.getRuntime().maxMemory() >> 20,
      lines.stream().collect(Collectors.joining(", ")));
  }

  private static String describe(CacheBudget budget) {
    return String.format(Locale.ROOT, "%s %.1f MiB or %d entries (%s-bound, ~%d entries of ~%d B)", budget.name(),
      budget.bytes() / 1048576.0, budget.maxEntries(), budget.memoryBound() ? "memory" : "count",
      Math.min(budget.maxEntries(), budget.bytes() / budget.typicalEntry()), budget.typicalEntry());
  }
}
