package org.folio.sidecar.authz;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.support.TestCacheConfig;
import org.folio.sidecar.testkit.ConfigMappings;
import org.folio.sidecar.testkit.FakeTicker;
import org.folio.sidecar.token.VerifiedToken;
import org.junit.jupiter.api.Test;

/**
 * Decisions kept per user, sessions ended apart (issue 45), on a fake clock: a user's next session hits; a
 * logged-out session is never served its sibling's grant; Keycloak's "not active" costs one call per session; a
 * logout-all ends the sessions before it and not later logins; ended sessions are kept for the token lifetime, and
 * bounded (issue 43 item 3).
 */
class EndedSessionsTest {

  private static final long NOW = 1_800_000_000L;

  private final FakeTicker ticker = new FakeTicker();
  private final ControlledKeycloak keycloak = new ControlledKeycloak();
  private final AuthzCacheConfig config = TestCacheConfig.defaults(100_000);
  private final DecisionCache cache = new DecisionCache(keycloak, config, new SimpleMeterRegistry(), ticker,
    Runnable::run);

  private static AuthorizationRequest request(String user, String session, long issuedAt, String permission) {
    return new AuthorizationRequest("t1", permission,
      new VerifiedToken("raw", "t1", "app", user, user, session, issuedAt + 600, issuedAt));
  }

  private ControlledKeycloak.Call lastCall() {
    return keycloak.pending.get(keycloak.pending.size() - 1);
  }

  private void granted(AuthorizationRequest request) {
    cache.decide(request);
    lastCall().allow();
  }

  @Test
  void aLoggedOutSessionIsNeverServedItsSiblingSessionsGrant() {
    var loggedOut = request("u1", "s1", NOW, "/a#GET");
    var sibling = request("u1", "s2", NOW, "/a#GET");
    granted(sibling);

    cache.sessionEnded("t1", "s1");

    int calls = keycloak.calls;
    assertThat(cache.decide(loggedOut).result()).isEqualTo(Decision.UNAUTHENTICATED);
    assertThat(cache.sessionEnded(loggedOut.token())).isTrue();
    assertThat(cache.decide(sibling).result()).as("the sibling keeps its grant").isEqualTo(Decision.PERMIT);
    assertThat(keycloak.calls).isEqualTo(calls);
  }

  @Test
  void aUsersNextSessionHits() {
    granted(request("u1", "s1", NOW, "/a#GET"));
    int calls = keycloak.calls;

    assertThat(cache.decide(request("u1", "s2", NOW + 5, "/a#GET")).result()).isEqualTo(Decision.PERMIT);
    assertThat(keycloak.calls).isEqualTo(calls);
  }

  @Test
  void aSessionKeycloakSaysIsNotActiveCostsOneCallAndLeavesItsSiblingServed() {
    granted(request("u1", "s2", NOW, "/a#GET"));
    var dead = request("u1", "s1", NOW, "/b#GET");

    var first = cache.decide(dead);
    lastCall().unauthenticated();
    assertThat(first.result()).isEqualTo(Decision.UNAUTHENTICATED);

    int calls = keycloak.calls;
    for (int i = 0; i < 100; i++) {
      assertThat(cache.decide(dead).result()).isEqualTo(Decision.UNAUTHENTICATED);
      assertThat(cache.decide(request("u1", "s1", NOW, "/a#GET")).result()).isEqualTo(Decision.UNAUTHENTICATED);
    }
    assertThat(keycloak.calls).as("one Keycloak call for the dead session").isEqualTo(calls);
    assertThat(cache.decide(request("u1", "s2", NOW, "/a#GET")).result()).isEqualTo(Decision.PERMIT);
    assertThat(cache.endedSessions()).isEqualTo(1);
  }

  @Test
  void aSiblingThatJoinedADeadSessionsLoadAsksForItself() {
    var dead = cache.decide(request("u1", "s1", NOW, "/a#GET"));
    var sibling = cache.decide(request("u1", "s2", NOW, "/a#GET"));
    assertThat(keycloak.calls).as("one load for both").isEqualTo(1);

    lastCall().unauthenticated();

    assertThat(dead.result()).isEqualTo(Decision.UNAUTHENTICATED);
    assertThat(sibling.isComplete()).as("the sibling asks Keycloak with its own token").isFalse();
    lastCall().allow();
    assertThat(sibling.result()).isEqualTo(Decision.PERMIT);
  }

  @Test
  void aLogoutAllEndsTheSessionsBeforeItAndKeycloakDecidesThoseAboutItsTime() {
    var before = request("u1", "s1", NOW - 60, "/a#GET");
    granted(before);

    assertThat(cache.userLoggedOut("t1", "u1", NOW * 1000)).as("the user's decisions dropped").isEqualTo(1);

    int calls = keycloak.calls;
    assertThat(cache.decide(before).result()).isEqualTo(Decision.UNAUTHENTICATED);
    assertThat(keycloak.calls).isEqualTo(calls);
    // a token issued within the clocks' skew of the logout-all: Keycloak tells, and its answer is not cached
    var unsure = cache.decide(request("u1", "s2", NOW + 2, "/a#GET"));
    lastCall().allow();
    assertThat(unsure.result()).isEqualTo(Decision.PERMIT);
    assertThat(cache.cachedKeys()).isEmpty();
    // a later login is the user's again
    var later = request("u1", "s3", NOW + 60, "/a#GET");
    granted(later);
    assertThat(cache.decide(later).result()).isEqualTo(Decision.PERMIT);
    assertThat(cache.decide(before).result()).isEqualTo(Decision.UNAUTHENTICATED);
  }

  @Test
  void endedSessionsAreKeptForTheTokenLifetimeAndBounded() {
    var small = new DecisionCache(keycloak, ConfigMappings.load(AuthzCacheConfig.class,
      Map.of("sidecar.authz-cache.ended-sessions-max-size", "50")), new SimpleMeterRegistry(), ticker, Runnable::run);
    var token = request("u1", "s1", NOW, "/a#GET").token();
    small.sessionEnded("t1", "s1");

    ticker.advance(config.endedSessionTtl().minusSeconds(1));
    assertThat(small.sessionEnded(token)).isTrue();
    ticker.advance(Duration.ofSeconds(1));
    assertThat(small.sessionEnded(token)).as("every token of it has expired by now").isFalse();

    var sibling = request("u1", "s-live", NOW, "/a#GET");
    small.decide(sibling);
    lastCall().allow();
    for (int i = 0; i < 1000; i++) {
      small.sessionEnded("t1", "s" + i);
    }
    assertThat(small.endedSessions()).isLessThanOrEqualTo(50);

    // whichever ended sessions the bound forgot, none is served its user's grant: Keycloak decides the tenant's
    for (int i = 0; i < 1000; i++) {
      var ended = small.decide(request("u1", "s" + i, NOW, "/a#GET"));
      if (!ended.isComplete()) {
        lastCall().unauthenticated();
      }
      assertThat(ended.result()).isEqualTo(Decision.UNAUTHENTICATED);
    }
  }

  @Test
  void thousandLoginsOfAHundredUsersKeepOneEntryPerUserAndPermission() {
    var permissions = List.of("/patrons#GET", "/check-out#POST", "/check-in#POST");
    for (int login = 0; login < 1000; login++) {
      var user = "u" + login % 100;
      for (var permission : permissions) {
        cache.decide(request(user, "s" + login, NOW + login, permission));
        if (!keycloak.pending.isEmpty() && !lastCall().answer.future().isComplete()) {
          lastCall().allow();
        }
      }
    }

    assertThat(cache.cachedKeys()).hasSize(300);
    assertThat(keycloak.calls).as("one Keycloak call per user and permission").isEqualTo(300);
  }
}
