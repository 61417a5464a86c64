package org.folio.sidecar.authz;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.support.TestCacheConfig;
import org.folio.sidecar.testkit.FakeTicker;
import org.folio.sidecar.time.Timers;
import org.folio.sidecar.token.VerifiedToken;
import org.junit.jupiter.api.Test;

/**
 * A grant past its TTL while Keycloak is slow: served as soon as the stale wait ends (the test ends it, no time
 * passes), not after Keycloak's whole deadline; a request arriving during the re-check is served at once; a
 * Keycloak answering within the wait still decides, so a revoked grant is refused; a late answer replaces the grant.
 */
class SlowKeycloakStaleGrantTest {

  private final FakeTicker ticker = new FakeTicker();
  private final ControlledKeycloak keycloak = new ControlledKeycloak();
  private final List<Runnable> waits = new ArrayList<>();
  private final Timers timers = (delay, task) -> {
    waits.add(task);
    return () -> waits.remove(task);
  };
  private final AuthzCacheConfig config = TestCacheConfig.defaults(100);
  private final DecisionCache cache = new DecisionCache(keycloak, config, new SimpleMeterRegistry(), ticker,
    Runnable::run, bound -> bound - 1, timers);
  private final AuthorizationRequest grant = new AuthorizationRequest("t1", "/a#GET",
    new VerifiedToken("raw", "t1", "app", "u1", "u1", "s1", Long.MAX_VALUE, 0));

  private ControlledKeycloak.Call lastCall() {
    return keycloak.pending.get(keycloak.pending.size() - 1);
  }

  private void staleGrant() {
    cache.decide(grant);
    lastCall().allow();
    ticker.advance(config.allowTtl().plus(Duration.ofMinutes(1)));
  }

  private void endTheStaleWait() {
    List.copyOf(waits).forEach(Runnable::run);
  }

  @Test
  void aStaleGrantServesWhenTheWaitEndsAndLaterRequestsDoNotWaitAtAll() {
    staleGrant();

    var first = cache.decide(grant);
    assertThat(first.isComplete()).as("waits for the re-check, up to the stale wait").isFalse();
    var second = cache.decide(grant);
    assertThat(second.result()).as("the re-check is running: served at once").isEqualTo(Decision.PERMIT);

    endTheStaleWait();
    assertThat(first.result()).isEqualTo(Decision.PERMIT);
    assertThat(lastCall().answer.future().isComplete()).as("Keycloak still has not answered").isFalse();
    assertThat(keycloak.calls).as("one re-check for both").isEqualTo(2);
  }

  @Test
  void aRevocationKeycloakAnswersWithinTheWaitIsADenial() {
    staleGrant();

    var first = cache.decide(grant);
    lastCall().deny();

    assertThat(first.result()).isEqualTo(Decision.DENY);
    assertThat(waits).as("the wait's timer is cancelled").isEmpty();
  }

  @Test
  void aLateAnswerReplacesTheGrantItWasServedFrom() {
    staleGrant();
    var first = cache.decide(grant);
    endTheStaleWait();
    assertThat(first.result()).isEqualTo(Decision.PERMIT);

    lastCall().deny();

    assertThat(cache.decide(grant).result()).isEqualTo(Decision.DENY);
  }
}
