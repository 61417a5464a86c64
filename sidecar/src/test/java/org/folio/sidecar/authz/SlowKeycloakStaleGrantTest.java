package org.folio.sidecar.authz;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.support.TestCacheConfig;
import org.folio.sidecar.testkit.FakeTicker;
import org.folio.sidecar.time.Timers;
import org.folio.sidecar.token.VerifiedToken;
import org.junit.jupiter.api.Test;

/**
 * A grant past its TTL while Keycloak is slow: served as soon as the stale wait ends (the test ends it, no time
 * passes), not after Keycloak's whole deadline; a request arriving during the re-check is served at once; a
 * Keycloak answering within the wait still decides, so a revoked grant is refused; a late answer replaces the grant.
 * Stale means Keycloak did not answer (issue 43 item 4): a re-check waiting in this sidecar's own queue is waited
 * for, with no stale wait, and a session Keycloak then says is not active is refused; a full queue is a 503.
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

  private final AuthorizationRequest sibling = new AuthorizationRequest("t1", "/a#GET",
    new VerifiedToken("raw", "t1", "app", "u1", "u1", "s2", Long.MAX_VALUE, 0));

  @Test
  void aReCheckWaitingInThisSidecarsQueueIsWaitedForAndAnInactiveSessionIsRefused() {
    var queued = new QueuedKeycloak();
    var queuedCache = new DecisionCache(queued, config, new SimpleMeterRegistry(), ticker, Runnable::run,
      bound -> bound - 1, timers);
    queuedCache.decide(grant);
    queued.sendAll();
    queued.last().allow();
    ticker.advance(config.allowTtl().plusMinutes(1));

    var answer = queuedCache.decide(grant);
    assertThat(waits).as("no stale wait while the re-check is queued here").isEmpty();
    assertThat(queuedCache.decide(sibling).isComplete())
      .as("a sibling waits for the queued re-check too").isFalse();
    queued.sendAll();
    queued.last().unauthenticated();

    assertThat(answer.result()).isEqualTo(Decision.UNAUTHENTICATED);
  }

  @Test
  void aFullQueueIsA503NotAStaleGrant() {
    staleGrant();

    var answer = cache.decide(grant);
    lastCall().busy();

    assertThat(answer.failed()).isTrue();
    assertThat(((SidecarError) answer.cause()).status()).isEqualTo(503);
  }

  @Test
  void anUnreachableKeycloakServesTheStaleGrant() {
    staleGrant();

    var answer = cache.decide(grant);
    lastCall().fail();

    assertThat(answer.result()).isEqualTo(Decision.PERMIT);
  }

  /** A Keycloak behind a queue: a call is sent (leaves this sidecar) only when the test says so. */
  private static final class QueuedKeycloak implements AuthorizationDecider {
    private final ControlledKeycloak keycloak = new ControlledKeycloak();
    private final List<Runnable> queue = new ArrayList<>();

    @Override
    public io.vertx.core.Future<Decision> decide(AuthorizationRequest request) {
      return keycloak.decide(request);
    }

    @Override
    public io.vertx.core.Future<Decision> decide(AuthorizationRequest request, Runnable sent) {
      queue.add(sent);
      return keycloak.decide(request);
    }

    void sendAll() {
      List.copyOf(queue).forEach(Runnable::run);
      queue.clear();
    }

    ControlledKeycloak.Call last() {
      return keycloak.pending.get(keycloak.pending.size() - 1);
    }
  }
}
