package org.folio.sidecar.token;

import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Duration;
import org.jboss.logging.Logger;

/**
 * The log of tokens refused for naming a realm Keycloak does not know, or for coming beyond the new-realm budgets.
 * Anyone can send such tokens at any rate, so they are never a line each: the first after a quiet interval is
 * written at once, the ones after it are counted and written as one line with their count once the interval
 * (KC_UNKNOWN_REALM_LOG_INTERVAL) has passed: by the next refusal, or by the timer that flushes the count every
 * interval. The line names no realm and no token.
 */
final class UnknownRealmLog {

  private static final Logger LOGGER = Logger.getLogger(RealmKeys.class);

  private final Ticker ticker;
  private final long intervalNanos;
  private long lastLine;
  private long unknown;
  private long overBudget;

  UnknownRealmLog(Ticker ticker, Duration interval) {
    this.ticker = ticker;
    this.intervalNanos = interval.toNanos();
    this.lastLine = ticker.read() - intervalNanos;
  }

  void unknownRealm() {
    count(true);
  }

  void overBudget() {
    count(false);
  }

  /** Writes what was counted since the last line, if the interval has passed; a timer calls it too. */
  void flush() {
    count(0, 0);
  }

  private void count(boolean unknownRealm) {
    count(unknownRealm ? 1 : 0, unknownRealm ? 0 : 1);
  }

  private void count(int moreUnknown, int moreOverBudget) {
    long now = ticker.read();
    long unknownNow;
    long overBudgetNow;
    synchronized (this) {
      unknown += moreUnknown;
      overBudget += moreOverBudget;
      if (now - lastLine < intervalNanos || unknown + overBudget == 0) {
        return;
      }
      unknownNow = unknown;
      overBudgetNow = overBudget;
      unknown = 0;
      overBudget = 0;
      lastLine = now;
    }
    LOGGER.warnf("Tokens refused (401) since the last such line for the realm they name: %d of realms Keycloak does"
      + " not know, %d beyond KC_JWKS_NEW_REALM_FETCHES or KC_JWKS_NEW_REALM_FETCHES_PER_SOURCE (written at most once"
      + " per KC_UNKNOWN_REALM_LOG_INTERVAL, not one by one)", unknownNow, overBudgetNow);
  }
}
