package org.folio.sidecar.authz;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Predicate;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.testkit.FakeTicker;
import org.folio.sidecar.support.TestCacheConfig;
import org.folio.sidecar.token.VerifiedToken;
import org.junit.jupiter.api.Test;

/**
 * Model-based test of the decision cache: thousands of seeded random sequences of decisions, Keycloak answers
 * (allow, deny, outage) in any order, time advances, logouts of sessions and users, tenant revokes and size
 * pressure, checked after every step against a reference model of what may be served. A failure names its seed
 * and step; {@code -Dmodel.seed=N} replays one sequence.
 */
class DecisionCacheModelTest {

  private static final int SEQUENCES = Integer.getInteger("model.sequences", 3000);
  private static final int STEPS = 80;
  private static final List<String> TENANTS = List.of("t1", "t2");
  private static final List<String> USERS = List.of("u1", "u2", "u3");
  private static final List<String> SESSIONS = List.of("s1", "s2");
  private static final Duration TTL = TestCacheConfig.defaults(1).allowTtl();
  private static final Duration STALENESS = TestCacheConfig.defaults(1).maxStaleness();

  /** A decision asked at a step, and what the model knew about its key then. */
  private record Asked(DecisionKey key, int step, int lastInvalidation, Future<Decision> answer) {
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
    private final Map<DecisionKey, Integer> lastInvalidation = new HashMap<>();
    private final Map<DecisionKey, List<Grant>> grants = new HashMap<>();
    private final List<String> permissions;
    private int step;

    Sequence(long seed) {
      this.seed = seed;
      this.random = new Random(seed);
      long maxSize = 4 + random.nextInt(28);
      this.permissions = new ArrayList<>();
      for (int p = 0; p < 2 + random.nextInt(10); p++) {
        permissions.add("/p" + p + "#GET");
      }
      this.cache = new DecisionCache(keycloak, config(maxSize), new SimpleMeterRegistry(), ticker, Runnable::run);
    }

    private static AuthzCacheConfig config(long maxSize) {
      return TestCacheConfig.defaults(maxSize);
    }

    void run() {
      for (step = 1; step <= STEPS; step++) {
        keycloak.step = step;
        var action = random.nextInt(100);
        try {
          if (action < 40) {
            decide();
          } else if (action < 65) {
            answerOne();
          } else if (action < 75) {
            ticker.advance(Duration.ofSeconds(random.nextInt(420)));
          } else if (action < 84) {
            logoutSession();
          } else if (action < 90) {
            logoutUser();
          } else if (action < 93) {
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

    private DecisionKey randomKey() {
      var tenant = pick(TENANTS);
      var user = pick(USERS);
      return new DecisionKey(tenant, "app", user, user + "-" + pick(SESSIONS), pick(permissions));
    }

    private <T> T pick(List<T> values) {
      return values.get(random.nextInt(values.size()));
    }

    private void decide() {
      var key = randomKey();
      var token = new VerifiedToken("raw", key.tenant(), key.clientId(), key.userId(), key.userId(), key.sessionId(),
        Long.MAX_VALUE);
      var answer = cache.decide(new AuthorizationRequest(key.tenant(), key.permission(), token));
      open.add(new Asked(key, step, lastInvalidation.getOrDefault(key, 0), answer));
    }

    private void answerOne() {
      var live = keycloak.pending.stream().filter(call -> !call.answer.future().isComplete()).toList();
      if (live.isEmpty()) {
        return;
      }
      var call = live.get(random.nextInt(live.size()));
      int outcome = random.nextInt(10);
      if (outcome < 6) {
        grants.computeIfAbsent(call.key, k -> new ArrayList<>()).add(new Grant(call.startedAtStep, ticker.read()));
        call.allow();
      } else if (outcome < 8) {
        call.deny();
      } else {
        call.fail();
      }
      keycloak.pending.remove(call);
    }

    private void logoutSession() {
      var tenant = pick(TENANTS);
      var user = pick(USERS);
      var session = user + "-" + pick(SESSIONS);
      invalidate(key -> key.tenant().equals(tenant) && session.equals(key.sessionId()),
        () -> cache.invalidateSession(tenant, session));
    }

    private void logoutUser() {
      var tenant = pick(TENANTS);
      var user = pick(USERS);
      invalidate(key -> key.tenant().equals(tenant) && user.equals(key.userId()),
        () -> cache.invalidateUser(tenant, user));
    }

    private void revokeTenant() {
      var tenant = pick(TENANTS);
      invalidate(key -> key.tenant().equals(tenant), () -> cache.invalidateTenant(tenant));
    }

    /** Invalidates, then checks the count against the keys the cache held, and remembers the step per key. */
    private void invalidate(Predicate<DecisionKey> affected, java.util.function.IntSupplier invalidation) {
      var expected = cache.cachedKeys().stream().filter(affected).count();
      int removed = invalidation.getAsInt();
      assertThat(removed).as("count returned by the invalidation").isEqualTo(expected);
      for (var tenant : TENANTS) {
        for (var user : USERS) {
          for (var session : SESSIONS) {
            for (var permission : permissions) {
              var key = new DecisionKey(tenant, "app", user, user + "-" + session, permission);
              if (affected.test(key)) {
                lastInvalidation.put(key, step);
              }
            }
          }
        }
      }
      keycloak.pending.stream().filter(call -> affected.test(call.key)).forEach(call -> call.orphaned = true);
    }

    /** Each answered decision: a permit must rest on an allow asked after the key's last invalidation, and fresh enough. */
    private void collectAnswers() {
      var iterator = open.iterator();
      while (iterator.hasNext()) {
        var asked = iterator.next();
        if (!asked.answer().isComplete()) {
          continue;
        }
        iterator.remove();
        if (asked.answer().succeeded() && asked.answer().result() == Decision.PERMIT) {
          var justified = Optional.ofNullable(grants.get(asked.key())).orElse(List.of()).stream()
            .filter(grant -> grant.startedAtStep() > asked.lastInvalidation())
            .anyMatch(grant -> ticker.read() - grant.answeredAtNanos() <= TTL.plus(STALENESS).toNanos());
          assertThat(justified).as("permit for %s asked at step %d (last invalidation at step %d) rests on a fresh "
            + "allow asked after it", asked.key(), asked.step(), asked.lastInvalidation()).isTrue();
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
      assertThat(cache.indexedKeys(true, false, false)).as("tenant index = cached keys").isEqualTo(cached);
      assertThat(cached).as("session and user indexes hold only cached keys")
        .containsAll(cache.indexedKeys(false, true, true));
    }
  }
}
