package org.folio.sidecar.authz;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.support.LogCapture;
import org.folio.sidecar.support.TestCacheConfig;
import org.folio.sidecar.testkit.FakeTicker;
import org.folio.sidecar.time.Timers;
import org.folio.sidecar.token.VerifiedToken;
import org.jboss.logmanager.Level;
import org.junit.jupiter.api.Test;

/**
 * With {@code org.folio.sidecar.authz} at DEBUG, as the runbook "Debug one sidecar's log" sets it, every decision
 * of the cache says in one line why it answered as it did, and no line holds the token; at INFO there is none.
 * Time moves and Keycloak answers only when the test says. Not played here: an entry read while another thread
 * removes it (DecisionCacheLogoutRaceTest plays that race) and a cached "unauthenticated", which is never cached.
 */
class DecisionReasonsAtDebugTest {

  private static final String CATEGORY = "org.folio.sidecar.authz";
  private static final String TOKEN = "eyJ.debug-reasons-token.sig";
  private static final String TENANT = "debugreasons";
  private static final long NOW = 1_800_000_000L;

  private final FakeTicker ticker = new FakeTicker();
  private final ControlledKeycloak keycloak = new ControlledKeycloak();
  private final List<Runnable> staleWaits = new ArrayList<>();
  private final Timers timers = (delay, task) -> {
    staleWaits.add(task);
    return () -> staleWaits.remove(task);
  };
  private final AuthzCacheConfig config = TestCacheConfig.defaults(100);
  private final DecisionCache cache = new DecisionCache(keycloak, config, new SimpleMeterRegistry(), ticker,
    Runnable::run, bound -> bound - 1, timers);
  private int seen;

  private static AuthorizationRequest request(String userId, String sessionId, String permission) {
    return new AuthorizationRequest(TENANT, permission,
      new VerifiedToken(TOKEN, TENANT, "app", userId, userId, sessionId, Long.MAX_VALUE, NOW));
  }

  private final AuthorizationRequest grant = request("u1", "s1", "/a#GET");

  private ControlledKeycloak.Call lastCall() {
    return keycloak.pending.get(keycloak.pending.size() - 1);
  }

  /** The reasons of the decisions logged since the last look, for this test's tenant only. */
  private List<String> newReasons(LogCapture capture) {
    var lines = capture.lines().stream()
      .filter(line -> line.startsWith("org.folio.sidecar.authz.DecisionLog Authorization cache ")
        && line.contains(" for tenant " + TENANT + ","))
      .toList();
    var reasons = lines.subList(seen, lines.size()).stream()
      .map(line -> line.substring("org.folio.sidecar.authz.DecisionLog Authorization cache ".length(),
        line.indexOf(" for tenant ")))
      .toList();
    seen = lines.size();
    return reasons;
  }

  @Test
  void eachDecisionSaysWhyInOneLine() {
    try (var capture = LogCapture.at(Level.DEBUG, CATEGORY)) {
      var first = cache.decide(grant);
      assertThat(newReasons(capture)).containsExactly("miss, Keycloak asked");
      var second = cache.decide(grant);
      assertThat(newReasons(capture)).containsExactly("miss, joined the Keycloak call in flight");
      lastCall().allow();
      assertThat(List.of(first.result(), second.result())).containsOnly(Decision.PERMIT);

      cache.decide(grant);
      assertThat(newReasons(capture)).containsExactly("hit (permit)");
      assertThat(capture.lines()).contains("org.folio.sidecar.authz.DecisionLog Authorization cache hit (permit) "
        + "for tenant debugreasons, client app, user u1, permission /a#GET");

      ticker.advance(config.refreshAfter().plusSeconds(1));
      cache.decide(grant);
      assertThat(newReasons(capture)).containsExactly("hit (permit), re-checked in the background");
      lastCall().allow();

      var denied = request("u1", "s1", "/b#POST");
      cache.decide(denied);
      lastCall().deny();
      assertThat(newReasons(capture)).containsExactly("miss, Keycloak asked");
      cache.decide(denied);
      assertThat(newReasons(capture)).containsExactly("hit (deny)");

      ticker.advance(config.allowTtl().plus(Duration.ofMinutes(1)));
      var stale = cache.decide(grant);
      lastCall().fail();
      assertThat(stale.result()).isEqualTo(Decision.PERMIT);
      assertThat(newReasons(capture)).containsExactly("stale grant served, Keycloak did not answer");

      var busy = cache.decide(grant);
      lastCall().busy();
      assertThat(((SidecarError) busy.cause()).status()).isEqualTo(503);
      assertThat(newReasons(capture)).containsExactly("expired, re-check failed");

      var rechecked = cache.decide(grant);
      lastCall().allow();
      assertThat(rechecked.result()).isEqualTo(Decision.PERMIT);
      assertThat(newReasons(capture)).containsExactly("expired, re-checked by Keycloak");

      cache.sessionEnded(TENANT, "s1");
      assertThat(cache.decide(grant).result()).isEqualTo(Decision.UNAUTHENTICATED);
      assertThat(newReasons(capture)).containsExactly("ended session refused");

      cache.userLoggedOut(TENANT, "u2", NOW * 1000);
      cache.decide(request("u2", "s2", "/a#GET"));
      lastCall().allow();
      assertThat(newReasons(capture))
        .containsExactly(
          "not cached, session in doubt (a logout-all, or ended sessions past their bound): Keycloak asked");

      // a service token has no user
      cache.decide(new AuthorizationRequest(TENANT, "/a#GET",
        new VerifiedToken(TOKEN, TENANT, "module-access", "svc", null, null, Long.MAX_VALUE, NOW)));
      assertThat(capture.lines()).contains("org.folio.sidecar.authz.DecisionLog Authorization cache miss, Keycloak "
        + "asked for tenant debugreasons, client module-access, user -, permission /a#GET");

      assertThat(capture.lines()).noneMatch(line -> line.contains("debug-reasons-token"));
    }
  }

  @Test
  void atInfoNoDecisionIsLogged() {
    try (var capture = LogCapture.at(Level.INFO, CATEGORY)) {
      cache.decide(grant);
      lastCall().allow();
      cache.decide(grant);

      assertThat(newReasons(capture)).isEmpty();
    }
  }
}
