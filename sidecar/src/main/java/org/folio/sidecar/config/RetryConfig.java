package org.folio.sidecar.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * Retries of the start-up loads from the platform (bootstrap from mgr-applications, entitlements), with
 * upstream's variables and defaults: 10 retries after the first call, 5 s doubling up to 2 minutes.
 */
@ConfigMapping(prefix = "retry")
public interface RetryConfig {

  /** RETRY_ATTEMPTS: retries after the first failed call; then the periodic reload takes over. */
  @WithDefault("10")
  int attempts();

  /** RETRY_MIN_DELAY: the wait before the first retry. */
  @WithDefault("5s")
  Duration minDelay();

  /** RETRY_MAX_DELAY: the longest wait between two retries. */
  @WithDefault("2m")
  Duration maxDelay();

  /** RETRY_BACKOFF_FACTOR: each wait is the previous one times this. */
  @WithDefault("2")
  double backoffFactor();
}
