package org.folio.sidecar.authz;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.testkit.ConfigMappings;
import org.folio.sidecar.testkit.FakeTicker;
import org.folio.sidecar.token.VerifiedToken;
import org.junit.jupiter.api.Test;

/**
 * A logout is final under concurrency: many threads load decisions, let denials expire and push entries out by
 * size while sessions are logged out, and after every logout not one grant of that session (nor one its user's
 * other sessions hold) is served from the cache. The model test plays every interleaving of one thread; this one
 * lets the index's own atomicity be tested by real threads.
 */
class DecisionCacheLogoutRaceTest {

  private static final int SESSIONS = Integer.getInteger("race.sessions", 300_000);
  // a bound on the run's time as well as its count: verify stays fast on a busy machine
  private static final long BUDGET_NANOS = Duration.ofSeconds(Long.getLong("race.seconds", 30)).toNanos();
  private static final int THREADS = Integer.getInteger("race.threads", 4);
  private static final String[] PERMISSIONS = {"/a#GET", "/b#GET", "/c#POST", "/denied#DELETE"};
  private static final String DENIED = "/denied#DELETE";

  /** Keycloak's view: grants everything but one permission, and nothing for a session that has ended. */
  private static final class Keycloak implements AuthorizationDecider {
    final Map<String, Boolean> ended = new ConcurrentHashMap<>();

    @Override
    public Future<Decision> decide(AuthorizationRequest request) {
      if (ended.containsKey(request.token().sessionId())) {
        return Future.succeededFuture(Decision.UNAUTHENTICATED);
      }
      return Future.succeededFuture(DENIED.equals(request.permission()) ? Decision.DENY : Decision.PERMIT);
    }
  }

  @Test
  void noGrantOfALoggedOutSessionIsServedWhileOthersLoadAndEvict() throws Exception {
    var ticker = new FakeTicker();
    var keycloak = new Keycloak();
    var config = ConfigMappings.load(AuthzCacheConfig.class, Map.of(
      "sidecar.authz-cache.max-size", "512",
      "sidecar.authz-cache.deny-ttl", "0s"));
    // Caffeine's maintenance (size evictions, expiry) on its own pool, as in production
    var cache = new DecisionCache(keycloak, config, new SimpleMeterRegistry(), ticker);
    var loggedOut = new ConcurrentHashMap<Integer, Boolean>();
    var next = new AtomicInteger();
    var wrongAllows = new AtomicLong();
    var decisions = new AtomicLong();
    var failures = new ArrayList<Throwable>();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    var done = new CountDownLatch(THREADS);
    long started = System.nanoTime();

    for (int t = 0; t < THREADS; t++) {
      pool.execute(() -> {
        try {
          var random = ThreadLocalRandom.current();
          int session;
          while ((session = next.getAndIncrement()) < SESSIONS && System.nanoTime() - started < BUDGET_NANOS) {
            // a denial that expires at once (its removal runs on Caffeine's pool) beside the session's grants, and
            // a recent session that another thread may be logging out
            for (var permission : PERMISSIONS) {
              decide(cache, session, permission);
            }
            int recent = Math.max(0, session - 1 - random.nextInt(8));
            boolean endedBefore = loggedOut.containsKey(recent);
            if (decide(cache, recent, PERMISSIONS[random.nextInt(PERMISSIONS.length)]) == Decision.PERMIT
              && endedBefore) {
              wrongAllows.incrementAndGet();
            }
            decisions.addAndGet(PERMISSIONS.length + 1);
            if (random.nextInt(64) == 0) {
              ticker.advance(Duration.ofMillis(1));
            }
            keycloak.ended.put(sessionId(session), true);
            cache.sessionEnded(tenant(session), sessionId(session));
            loggedOut.put(session, true);
            for (var permission : PERMISSIONS) {
              if (decide(cache, session, permission) == Decision.PERMIT) {
                wrongAllows.incrementAndGet();
              }
            }
          }
        } catch (Throwable e) {
          synchronized (failures) {
            failures.add(e);
          }
        } finally {
          done.countDown();
        }
      });
    }
    assertThat(done.await(5, TimeUnit.MINUTES)).as("stress run finished").isTrue();
    pool.shutdown();
    System.out.printf("decision cache logout race: %d sessions, %d decisions, %d threads, %d ms, %d wrong allows%n",
      Math.min(next.get(), SESSIONS), decisions.get(), THREADS, (System.nanoTime() - started) / 1_000_000,
      wrongAllows.get());
    assertThat(failures).isEmpty();
    assertThat(wrongAllows.get()).as("grants served from the cache after their session's logout").isZero();
  }

  private static Decision decide(DecisionCache cache, int session, String permission) {
    var token = new VerifiedToken("raw", tenant(session), "folio-frontend", "sub", "user" + session % 1000,
      sessionId(session), 0, 0);
    return cache.decide(new AuthorizationRequest(tenant(session), permission, token)).toCompletionStage()
      .toCompletableFuture().join();
  }

  private static String tenant(int session) {
    return "t" + session % 3;
  }

  private static String sessionId(int session) {
    return "s" + session;
  }
}
