package org.folio.sidecar.authz;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.IntSupplier;
import java.util.function.Predicate;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.testkit.FakeTicker;
import org.folio.sidecar.support.TestCacheConfig;
import org.folio.sidecar.token.VerifiedToken;
import org.junit.jupiter.api.Test;

/**
 * Model-based test of the decision cache, keyed per user: thousands of seeded random sequences of logins, token
 * refreshes, decisions, Keycloak answers (allow, deny, "session not active", outage, this sidecar's queue full) in
 * any order, clock jumps, logouts (events), logouts everywhere (events), sessions Keycloak ends without an event,
 * permissions revoked and granted again, tenant revokes and size pressure, checked after every step against a
 * reference model of what may be served: a token of a session the sidecar has been told has ended (a logout or
 * logout-all event, or Keycloak's "not active") is never allowed, whatever its user's other sessions hold, and
 * costs Keycloak no further call; every permit rests on an allow Keycloak gave the user after the key's last
 * invalidation, no older than TTL + staleness, so a revoked permission stops within that bound for every session
 * of the user. A failure names its seed and step; {@code -Dmodel.seed=N} replays one sequence.
 */
class DecisionCacheModelTest {

  private static final int SEQUENCES = Integer.getInteger("model.sequences", 3000);
  private static final int STEPS = 80;
  private static final List<String> TENANTS = List.of("t1", "t2");
  private static final List<String> USERS = List.of("u1", "u2", "u3");
  private static final AuthzCacheConfig DEFAULTS = TestCacheConfig.defaults(1);
  private static final Duration TTL = DEFAULTS.allowTtl();
  private static final Duration STALENESS = DEFAULTS.maxStaleness();
  private static final long SKEW_SECONDS = DEFAULTS.clockSkew().toSeconds();
  /** FOLIO's access token lifespan, the ended sessions' TTL: a token is used only until it expires. */
  private static final long TOKEN_SECONDS = DEFAULTS.endedSessionTtl().toSeconds();
  private static final long EPOCH = 1_800_000_000L;

  /** One Keycloak session: its current token's iat, whether Keycloak has ended it, and what the sidecar knows. */
  private static final class Session {
    final String tenant;
    final String user;
    final String id;
    long issuedAt;
    boolean deadInKeycloak;
    /** The sidecar was told: an event named it (or a logout-all before its token), or Keycloak answered "not active". */
    boolean told;
    /** Ended by an event (a logout, a logout-all): its tokens are never allowed, in the skew band neither. */
    boolean endedByEvent;

    Session(String tenant, String user, String id, long issuedAt) {
      this.tenant = tenant;
      this.user = user;
      this.id = id;
      this.issuedAt = issuedAt;
    }

    VerifiedToken token() {
      return new VerifiedToken("raw", tenant, "app", user, user, id, issuedAt + TOKEN_SECONDS, issuedAt);
    }
  }

  /** A decision asked at a step, and what the model knew then. */
  private record Asked(DecisionKey key, Session session, int step, int lastInvalidation, boolean refusedForSure,
    Future<Decision> answer) {
  }

  /** An allow Keycloak gave for a key: the step its call started and when it was answered. */
  private record Grant(int startedAtStep, long answeredAtNanos) {
  }

  @Test
  void everySequenceKeepsTheCachesPromises() {
    var seed = Long.getLong("model.seed");
    if (seed != null) {
      new Sequence(seed).run();
      return;
    }
    long started = System.nanoTime();
    for (long s = 1; s <= SEQUENCES; s++) {
      new Sequence(s).run();
    }
    System.out.printf("decision cache model: %d sequences of %d steps in %d ms%n", SEQUENCES, STEPS,
      (System.nanoTime() - started) / 1_000_000);
  }

  private static final class Sequence {

    private final long seed;
    private final Random random;
    private final FakeTicker ticker = new FakeTicker();
    private final ControlledKeycloak keycloak = new ControlledKeycloak();
    private final DecisionCache cache;
    private final List<Asked> open = new ArrayList<>();
    private final List<Session> sessions = new ArrayList<>();
    private final Map<DecisionKey, Integer> lastInvalidation = new HashMap<>();
    private final Map<DecisionKey, List<Grant>> grants = new HashMap<>();
    /** Permissions Keycloak no longer grants a user: (tenant, user, permission) as a key. */
    private final Set<DecisionKey> revoked = new HashSet<>();
    private final Map<DecisionKey, Long> revokedAtNanos = new HashMap<>();
    /** Per tenant and user: the last logout-all's time (epoch seconds) and when the sidecar learnt it. */
    private final Map<String, long[]> loggedOutAt = new HashMap<>();
    private final List<String> permissions;
    private int step;
    private int nextSession;

    Sequence(long seed) {
      this.seed = seed;
      this.random = new Random(seed);
      long maxSize = 4 + random.nextInt(28);
      this.permissions = new ArrayList<>();
      for (int p = 0; p < 2 + random.nextInt(10); p++) {
        permissions.add("/p" + p + "#GET");
      }
      this.cache = new DecisionCache(keycloak, TestCacheConfig.defaults(maxSize), new SimpleMeterRegistry(), ticker,
        Runnable::run);
      for (var tenant : TENANTS) {
        for (var user : USERS) {
          login(tenant, user);
        }
      }
    }

    private long now() {
      return EPOCH + ticker.read() / 1_000_000_000L;
    }

    void run() {
      for (step = 1; step <= STEPS; step++) {
        keycloak.step = step;
        var action = random.nextInt(100);
        try {
          if (action < 34) {
            decide();
          } else if (action < 58) {
            answerOne();
          } else if (action < 65) {
            ticker.advance(Duration.ofSeconds(random.nextInt(420)));
          } else if (action < 70) {
            login(pick(TENANTS), pick(USERS));
          } else if (action < 75) {
            refresh();
          } else if (action < 81) {
            logoutSession();
          } else if (action < 84) {
            logoutUser();
          } else if (action < 88) {
            keycloakEndsSessionSilently();
          } else if (action < 92) {
            revokePermission();
          } else if (action < 94) {
            revoked.clear();
          } else if (action < 96) {
            revokeTenant();
          } else {
            for (int i = 0; i < 6; i++) {
              decide();
            }
          }
          collectAnswers();
          checkInvariants();
        } catch (AssertionError e) {
          throw new AssertionError("seed " + seed + ", step " + step + ": " + e.getMessage(), e);
        }
      }
    }

    private <T> T pick(List<T> values) {
      return values.get(random.nextInt(values.size()));
    }

    private void login(String tenant, String user) {
      sessions.add(new Session(tenant, user, user + "-s" + nextSession++, now()));
    }

    /** A session whose token the verifier would still accept. */
    private Optional<Session> usable() {
      var live = sessions.stream().filter(session -> now() < session.issuedAt + TOKEN_SECONDS).toList();
      return live.isEmpty() ? Optional.empty() : Optional.of(pick(live));
    }

    private void refresh() {
      // Keycloak refreshes only a session it has not ended
      sessions.stream().filter(session -> !session.deadInKeycloak).findAny()
        .ifPresent(session -> session.issuedAt = now());
    }

    private void decide() {
      var found = usable();
      if (found.isEmpty()) {
        return;
      }
      var session = found.get();
      var permission = pick(permissions);
      var key = new DecisionKey(session.tenant, "app", session.user, permission);
      boolean refusedForSure = session.deadInKeycloak && (session.told || session.endedByEvent);
      int calls = keycloak.calls;
      var answer = cache.decide(new AuthorizationRequest(session.tenant, permission, session.token()));
      if (session.deadInKeycloak && session.told) {
        assertThat(keycloak.calls).as("Keycloak asked again about %s, known to have ended", session.id)
          .isEqualTo(calls);
      }
      if (keycloak.calls > calls && inSkewBand(session)) {
        // Keycloak decides a token issued about a logout-all's time; its answer is never cached
        keycloak.pending.get(keycloak.pending.size() - 1).orphaned = true;
      }
      open.add(new Asked(key, session, step, lastInvalidation.getOrDefault(key, 0), refusedForSure, answer));
    }

    private boolean inSkewBand(Session session) {
      var logoutAll = loggedOutAt.get(session.tenant + "/" + session.user);
      return logoutAll != null
        && ticker.read() - logoutAll[1] < DEFAULTS.endedSessionTtl().plus(DEFAULTS.clockSkew()).toNanos()
        && Math.abs(session.issuedAt - logoutAll[0]) <= SKEW_SECONDS;
    }

    private void answerOne() {
      var live = keycloak.pending.stream().filter(call -> !call.answer.future().isComplete()).toList();
      if (live.isEmpty()) {
        return;
      }
      var call = live.get(random.nextInt(live.size()));
      var session = sessions.stream().filter(s -> s.id.equals(call.request.token().sessionId())).findFirst()
        .orElseThrow();
      int outcome = random.nextInt(20);
      if (outcome < 2) {
        call.busy();
      } else if (outcome < 4) {
        call.fail();
      } else if (session.deadInKeycloak) {
        session.told = true;
        call.unauthenticated();
      } else if (outcome < 15 && !revoked.contains(userKey(call.key))) {
        grants.computeIfAbsent(call.key, k -> new ArrayList<>()).add(new Grant(call.startedAtStep, ticker.read()));
        call.allow();
      } else {
        call.deny();
      }
      keycloak.pending.remove(call);
    }

    private static DecisionKey userKey(DecisionKey key) {
      return new DecisionKey(key.tenant(), "app", key.userId(), key.permission());
    }

    private void logoutSession() {
      usable().ifPresent(session -> {
        session.deadInKeycloak = true;
        session.told = true;
        session.endedByEvent = true;
        cache.sessionEnded(session.tenant, session.id);
      });
    }

    private void logoutUser() {
      var tenant = pick(TENANTS);
      var user = pick(USERS);
      long at = now();
      for (var session : sessions) {
        if (session.tenant.equals(tenant) && session.user.equals(user)) {
          session.deadInKeycloak = true;
          session.endedByEvent = true;
          // in the skew band the sidecar cannot tell: Keycloak's answer tells it
          session.told |= session.issuedAt < at - SKEW_SECONDS;
        }
      }
      loggedOutAt.put(tenant + "/" + user, new long[]{at, ticker.read()});
      invalidate(key -> key.tenant().equals(tenant) && user.equals(key.userId()),
        () -> cache.userLoggedOut(tenant, user, at * 1000));
    }

    /** Keycloak ends a session and nobody tells the sidecar (no event): only a Keycloak answer can. */
    private void keycloakEndsSessionSilently() {
      usable().ifPresent(session -> session.deadInKeycloak = true);
    }

    private void revokePermission() {
      var key = new DecisionKey(pick(TENANTS), "app", pick(USERS), pick(permissions));
      if (revoked.add(key)) {
        revokedAtNanos.put(key, ticker.read());
      }
    }

    private void revokeTenant() {
      var tenant = pick(TENANTS);
      invalidate(key -> key.tenant().equals(tenant), () -> cache.invalidateTenant(tenant));
    }

    /** Invalidates, then checks the count against the keys the cache held, and remembers the step per key. */
    private void invalidate(Predicate<DecisionKey> affected, IntSupplier invalidation) {
      var expected = cache.cachedKeys().stream().filter(affected).count();
      int removed = invalidation.getAsInt();
      assertThat(removed).as("count returned by the invalidation").isEqualTo(expected);
      for (var tenant : TENANTS) {
        for (var user : USERS) {
          for (var permission : permissions) {
            var key = new DecisionKey(tenant, "app", user, permission);
            if (affected.test(key)) {
              lastInvalidation.put(key, step);
            }
          }
        }
      }
      keycloak.pending.stream().filter(call -> affected.test(call.key)).forEach(call -> call.orphaned = true);
    }

    /**
     * Each answered decision: a token of a session known to have ended is never allowed; a permit rests on an
     * allow asked after the key's last invalidation, and fresh enough; a revoked permission stops within the bound.
     */
    private void collectAnswers() {
      var iterator = open.iterator();
      while (iterator.hasNext()) {
        var asked = iterator.next();
        if (!asked.answer().isComplete()) {
          continue;
        }
        iterator.remove();
        boolean permit = asked.answer().succeeded() && asked.answer().result() == Decision.PERMIT;
        if (asked.refusedForSure()) {
          assertThat(permit).as("permit for %s of session %s asked at step %d, after the sidecar was told it had "
            + "ended", asked.key(), asked.session().id, asked.step()).isFalse();
        }
        if (!permit) {
          continue;
        }
        var justified = Optional.ofNullable(grants.get(asked.key())).orElse(List.of()).stream()
          .filter(grant -> grant.startedAtStep() > asked.lastInvalidation())
          .anyMatch(grant -> ticker.read() - grant.answeredAtNanos() <= TTL.plus(STALENESS).toNanos());
        assertThat(justified).as("permit for %s asked at step %d (last invalidation at step %d) rests on a fresh "
          + "allow asked after it", asked.key(), asked.step(), asked.lastInvalidation()).isTrue();
        var revokedAt = revokedAtNanos.get(asked.key());
        if (revoked.contains(asked.key()) && revokedAt != null) {
          assertThat(ticker.read() - revokedAt).as("permit for %s, revoked in Keycloak", asked.key())
            .isLessThanOrEqualTo(TTL.plus(STALENESS).toNanos());
        }
      }
    }

    private void checkInvariants() {
      var cached = cache.cachedKeys();
      // a key whose entry is gone can no longer have its call's answer cached
      keycloak.pending.stream().filter(call -> !cached.contains(call.key)).forEach(call -> call.orphaned = true);
      var live = new HashMap<DecisionKey, Integer>();
      keycloak.pending.stream().filter(call -> !call.orphaned && !call.answer.future().isComplete())
        .forEach(call -> live.merge(call.key, 1, Integer::sum));
      assertThat(live.values()).as("Keycloak calls in flight per key").allMatch(count -> count <= 1);
      assertThat(cache.indexedKeys(true, false)).as("tenant index = cached keys").isEqualTo(cached);
      assertThat(cached).as("user index holds only cached keys").containsAll(cache.indexedKeys(false, true));
    }
  }
}
