package org.folio.sidecar.authz;

import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What an operator may see of cached decisions: who, which permission, what Keycloak said and when. Never a token:
 * the cache holds none.
 *
 * @param total how many entries matched
 * @param entries at most the look-up's limit of them
 */
public record CacheLookup(int total, List<Entry> entries) {

  /**
   * One decision. {@code decision} is null while Keycloak's answer is awaited; {@code recheckIn} is when a use
   * re-checks a grant (zero: its next use does), null for a denial or a decision still loading.
   */
  public record Entry(String permission, String clientId, @Nullable String userId, @Nullable Decision decision,
    @Nullable Duration age, @Nullable Duration recheckIn, @Nullable Duration expiresIn) {
  }
}
