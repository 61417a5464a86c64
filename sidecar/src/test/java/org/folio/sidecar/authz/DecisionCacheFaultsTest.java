package org.folio.sidecar.authz;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import java.time.Duration;
import org.folio.sidecar.testkit.FakeTicker;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.support.TestCacheConfig;
import org.folio.sidecar.token.VerifiedToken;
import org.junit.jupiter.api.Test;

/**
 * The three bookkeeping faults a review found in the decision cache, each replayed step by step on a fake
 * clock with a Keycloak that answers when told. Each failed before the index got one owner.
 */
class DecisionCacheFaultsTest {

  private final FakeTicker ticker = new FakeTicker();
  private final ControlledKeycloak keycloak = new ControlledKeycloak();

  private DecisionCache cache(long maxSize) {
    return new DecisionCache(keycloak, TestCacheConfig.defaults(maxSize), new SimpleMeterRegistry(), ticker,
      Runnable::run);
  }

  private static AuthorizationRequest request(String user, String session, String permission) {
    return new AuthorizationRequest("t1", permission,
      new VerifiedToken("raw", "t1", "app", user, user, session, Long.MAX_VALUE, 0));
  }

  private ControlledKeycloak.Call lastCall() {
    return keycloak.pending.get(keycloak.pending.size() - 1);
  }

  @Test
  void aLogoutLeavesNoKeyInAnyIndexAndLaterCountsAreExact() {
    var cache = cache(100);
    cache.decide(request("u1", "s1", "/a#GET"));
    lastCall().allow();

    assertThat(cache.invalidateUser("t1", "u1")).isEqualTo(1);

    assertThat(cache.indexedKeys(true, true)).isEmpty();
    assertThat(cache.invalidateUser("t1", "u1")).isZero();
    assertThat(cache.invalidateTenant("t1")).isZero();
  }

  @Test
  void aGrantRefreshedAfterItsEntryWasEvictedIsNotCachedOutsideTheIndex() {
    var cache = cache(2);
    var grant = request("u1", "s1", "/a#GET");
    cache.decide(grant);
    lastCall().allow();
    ticker.advance(TestCacheConfig.defaults(2).refreshAfter().plusSeconds(30));
    assertThat(cache.decide(grant).result()).isEqualTo(Decision.PERMIT);
    var refresh = lastCall();
    // the entry is pushed out by others while Keycloak thinks
    for (var other : new String[]{"/b#GET", "/c#GET", "/d#GET"}) {
      cache.decide(request("u2", "s9", other));
      lastCall().allow();
    }
    assertThat(cache.cachedKeys()).noneMatch(key -> key.permission().equals("/a#GET"));
    refresh.allow();

    // a logout-all must reach whatever the user has cached: nothing of it may serve afterwards
    cache.invalidateUser("t1", "u1");
    int calls = keycloak.calls;
    cache.decide(grant);
    assertThat(keycloak.calls).as("Keycloak asked again after the logout").isEqualTo(calls + 1);
  }

  @Test
  void aLogoutDuringALoadWins() {
    var cache = cache(100);
    var grant = request("u1", "s1", "/a#GET");
    Future<Decision> first = cache.decide(grant);
    var load = lastCall();

    assertThat(cache.invalidateUser("t1", "u1")).isEqualTo(1);
    load.allow();

    // the caller that asked before the logout gets its answer; nobody after it does from the cache
    assertThat(first.result()).isEqualTo(Decision.PERMIT);
    int calls = keycloak.calls;
    var second = cache.decide(grant);
    assertThat(keycloak.calls).as("Keycloak asked again after the logout").isEqualTo(calls + 1);
    assertThat(second.isComplete()).isFalse();
  }

  @Test
  void concurrentCallersPastTheTtlShareOneRecheck() {
    var cache = cache(100);
    var grant = request("u1", "s1", "/a#GET");
    cache.decide(grant);
    lastCall().allow();
    ticker.advance(TestCacheConfig.defaults(100).allowTtl().plusMinutes(1));

    var first = cache.decide(grant);
    var second = cache.decide(grant);
    assertThat(keycloak.pending.stream().filter(call -> !call.answer.future().isComplete())).hasSize(1);
    lastCall().fail();

    // Keycloak down: the stale grant serves both, within its staleness
    assertThat(first.result()).isEqualTo(Decision.PERMIT);
    assertThat(second.result()).isEqualTo(Decision.PERMIT);
  }

  @Test
  void aCallerThatJoinedAFailingCallGetsTheOutageNotAnInternalError() {
    var cache = cache(100);
    var grant = request("u1", "s1", "/a#GET");
    var first = cache.decide(grant);
    var joined = cache.decide(grant);
    assertThat(keycloak.calls).as("one Keycloak call for both").isEqualTo(1);
    lastCall().fail();

    // both answer 503 (Keycloak unreachable), found under load: the joiner's cause came wrapped and it got a 500
    assertThat(first.cause()).isInstanceOf(SidecarError.class);
    assertThat(joined.cause()).isInstanceOf(SidecarError.class);
    assertThat(((SidecarError) joined.cause()).type()).isEqualTo(((SidecarError) first.cause()).type());
  }
}
