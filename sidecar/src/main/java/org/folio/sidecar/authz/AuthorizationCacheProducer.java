package org.folio.sidecar.authz;

import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.time.Timers;

/** Puts the configured cache in front of Keycloak: optimized by default, upstream's legacy cache on request. */
@Singleton
public class AuthorizationCacheProducer {

  @Produces
  @Singleton
  AuthorizationCache authorizationCache(KeycloakDecider keycloak, AuthzCacheConfig config, MeterRegistry registry,
    Ticker ticker, Clock clock, Timers timers) {
    return switch (config.mode()) {
      case OPTIMIZED -> new DecisionCache(keycloak, config, registry, ticker, timers);
      case LEGACY -> new LegacyDecisionCache(keycloak, config, registry, ticker, clock);
    };
  }
}
