package org.folio.sidecar.admin;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import org.folio.sidecar.config.AdminConfig;

/**
 * Slows down guessing the admin secret, per peer address: an address may send SIDECAR_ADMIN_FAILURES_BEFORE_BACKOFF
 * wrong credentials, then must wait SIDECAR_ADMIN_FAILURE_BACKOFF before its next one is even checked, twice as long
 * after each further wrong one, at most SIDECAR_ADMIN_FAILURE_BACKOFF_MAX. A call while it waits is refused without
 * looking at its credential, so it neither tests a guess nor lengthens the wait. The right credential clears the
 * address's failures; so does a quiet SIDECAR_ADMIN_FAILURE_BACKOFF_MAX after its wait ended. At most
 * SIDECAR_ADMIN_FAILURE_ADDRESSES addresses are remembered: beyond that the least recent are forgotten, so spreading
 * guesses over many addresses buys each its budget again, never more memory.
 */
@Singleton
public class AdminThrottle {

  /** An address's wrong credentials since its last right one, and until when (ticker nanos) it must wait. */
  private record Failures(int count, long waitUntil) {
  }

  private final Cache<String, Failures> byAddress;
  private final Ticker ticker;
  private final int budget;
  private final long backoffNanos;
  private final long backoffMaxNanos;

  @Inject
  AdminThrottle(AdminConfig config, Ticker ticker) {
    this(config.failuresBeforeBackoff(), config.failureBackoff(), config.failureBackoffMax(),
      config.failureAddresses(), ticker);
  }

  AdminThrottle(int budget, Duration backoff, Duration backoffMax, int addresses, Ticker ticker) {
    this.budget = budget;
    this.backoffNanos = backoff.toNanos();
    this.backoffMaxNanos = backoffMax.toNanos();
    this.ticker = ticker;
    this.byAddress = Caffeine.newBuilder().maximumSize(addresses).ticker(ticker)
      .expireAfter(Expiry.<String, Failures>writing((address, failures) -> Duration.ofNanos(
        Math.max(0, failures.waitUntil() - ticker.read()) + backoffMaxNanos)))
      .build();
  }

  /** How long {@code address} must still wait before a credential of its is checked; zero when it need not. */
  Duration waitOf(String address) {
    var failures = byAddress.getIfPresent(address);
    return failures == null ? Duration.ZERO : Duration.ofNanos(Math.max(0, failures.waitUntil() - ticker.read()));
  }

  /** A wrong credential from {@code address}: past the budget, the address waits (longer each time). */
  void failed(String address) {
    byAddress.asMap().compute(address, (key, before) -> {
      int count = before == null ? 1 : before.count() + 1;
      return new Failures(count, count <= budget ? 0 : ticker.read() + backoffNanos(count - budget));
    });
  }

  /** The right credential from {@code address}: its failures are forgotten. */
  void succeeded(String address) {
    byAddress.invalidate(address);
  }

  /** The wait after the {@code over}-th wrong credential past the budget: doubling from the first, capped. */
  private long backoffNanos(int over) {
    int doublings = Math.min(over - 1, Long.numberOfLeadingZeros(backoffNanos) - 1);
    return Math.min(backoffMaxNanos, backoffNanos << doublings);
  }
}
