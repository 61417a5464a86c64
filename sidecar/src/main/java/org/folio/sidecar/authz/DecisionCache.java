package org.folio.sidecar.authz;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineStatsCounter;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongUnaryOperator;
import org.folio.sidecar.authz.DecisionLog.Reason;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.config.CacheBudget;
import org.folio.sidecar.config.CacheBudgets;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.time.Timers;
import org.folio.sidecar.token.VerifiedToken;
import org.jspecify.annotations.Nullable;

/**
 * Decisions cached per {@link DecisionKey}, so a refreshed token and a user's next session hit. Sessions that
 * ended are held apart ({@link EndedSessions}) and checked first: a token of one is refused as Keycloak refuses it,
 * whatever the cache holds for its user. Concurrent misses of one key share one Keycloak call; grants in use are
 * re-checked in the background before they expire; while Keycloak is unreachable or slow, grants keep serving up to
 * a maximum staleness without waiting for it, but never because this sidecar's own Keycloak calls are queued.
 * Secondary indexes (user, tenant) let a logout-all or a tenant change drop exactly its entries without scanning the
 * cache.
 *
 * <p>The indexes hold exactly the keys the cache holds, loads in flight included, because each change of an
 * entry and of its index entries happens in one atomic operation on that key: an entry is indexed when it is
 * created ({@link #insert}), un-indexed when Caffeine evicts or expires it (the eviction listener runs inside
 * the removal) and when it is invalidated ({@link #invalidate}); and each index set is changed only inside its
 * index map's {@code compute}, so a key is never added to a set that a concurrent removal is dropping as empty
 * ({@code DecisionCacheLogoutRaceTest}). A logout therefore also removes a decision
 * still loading, and a late answer (a load, a background re-check) only ever replaces the very entry it
 * started from: once that entry is gone, the answer is served to its own caller and not cached.
 */
// "the very entry" is identity: entries are compared with == on purpose
@SuppressWarnings("ReferenceEquality")
public final class DecisionCache implements AuthorizationCache {

  private static final Future<Decision> PERMIT = Future.succeededFuture(Decision.PERMIT);
  private static final Future<Decision> DENY = Future.succeededFuture(Decision.DENY);
  private static final Future<Decision> UNAUTHENTICATED = Future.succeededFuture(Decision.UNAUTHENTICATED);
  /** Timers that never fire: a stale grant waits for its re-check's answer, however late (unit tests). */
  private static final Timers PATIENT = (delay, task) -> () -> {
  };

  /**
   * A decision, when Keycloak made it and the age after which a use re-checks it; {@code recheck} is the one
   * Keycloak call re-checking it (refresh ahead, or a re-check past its TTL), shared by every caller that needs it. {@code removed} is set when the
   * entry is evicted or invalidated, before it leaves the map: Caffeine's lock-free reads can still find an
   * entry while its eviction (and so its un-indexing) is under way, after a logout that no longer saw it in the
   * index has returned; such a read must not be served.
   */
  record Cached(Decision decision, long decidedAtNanos, long refreshAgeNanos,
    AtomicReference<@Nullable Recheck> recheck, AtomicBoolean removed) {
  }

  /**
   * A re-check: its answer, {@code sent} once its call has left this sidecar's queue for Keycloak (only then is a
   * late answer Keycloak being slow), and the session whose token it asked with (a "not active" answer is about
   * that session alone).
   */
  record Recheck(Future<Decision> answer, Future<Void> sent, @Nullable String sessionId) {
  }

  record UserRef(String tenant, String userId) {
  }

  private final AuthorizationDecider keycloak;
  private final Ticker ticker;
  private final AsyncCache<DecisionKey, Cached> cache;
  private final Map<DecisionKey, CompletableFuture<Cached>> entries;
  private final CaffeineStatsCounter stats;
  private final long refreshAfterNanos;
  private final long allowTtlNanos;
  private final long allowLifetimeNanos;
  private final long denyLifetimeNanos;
  private final Map<UserRef, Set<DecisionKey>> byUser = new ConcurrentHashMap<>();
  private final Map<String, Set<DecisionKey>> byTenant = new ConcurrentHashMap<>();
  private final Counter staleServed;
  private final Counter endedRefused;
  private final EndedSessions ended;
  private final Counter refreshes;
  private final LongUnaryOperator jitter;
  private final Timers timers;
  private final Duration staleWait;

  public DecisionCache(AuthorizationDecider keycloak, AuthzCacheConfig config, MeterRegistry registry, Ticker ticker,
    Timers timers) {
    // maintenance on the calling thread: handing it to a pool woke a pool thread (a futex call each side) about
    // every few hits (load/syscalls.sh); it is a drain of a small buffer, never a wait
    this(keycloak, config, registry, ticker, Runnable::run,
      config.refreshJitter() ? bound -> ThreadLocalRandom.current().nextLong(bound) : bound -> bound - 1, timers);
  }

  /** For tests and benchmarks: a stale grant waits for its re-check's answer however long it takes. */
  public DecisionCache(AuthorizationDecider keycloak, AuthzCacheConfig config, MeterRegistry registry, Ticker ticker) {
    this(keycloak, config, registry, ticker, PATIENT);
  }

  /** {@code executor} runs Caffeine's maintenance (production and tests: {@code Runnable::run}). */
  DecisionCache(AuthorizationDecider keycloak, AuthzCacheConfig config, MeterRegistry registry, Ticker ticker,
    Executor executor) {
    this(keycloak, config, registry, ticker, executor, new Random(1)::nextLong, PATIENT);
  }

  DecisionCache(AuthorizationDecider keycloak, AuthzCacheConfig config, MeterRegistry registry, Ticker ticker,
    Executor executor, LongUnaryOperator jitter) {
    this(keycloak, config, registry, ticker, executor, jitter, PATIENT);
  }

  /**
   * {@code jitter} draws a number in {@code [0, bound)} (thread-safe): where in its first refresh period a new
   * decision is first re-checked.
   */
  DecisionCache(AuthorizationDecider keycloak, AuthzCacheConfig config, MeterRegistry registry, Ticker ticker,
    Executor executor, LongUnaryOperator jitter, Timers timers) {
    this.keycloak = keycloak;
    this.jitter = jitter;
    this.timers = timers;
    this.staleWait = config.staleWait();
    this.ticker = ticker;
    this.refreshAfterNanos = config.refreshAfter().toNanos();
    this.allowTtlNanos = config.allowTtl().toNanos();
    long allowLifetime = allowTtlNanos + config.maxStaleness().toNanos();
    long denyLifetime = config.denyTtl().toNanos();
    this.allowLifetimeNanos = allowLifetime;
    this.denyLifetimeNanos = denyLifetime;
    this.stats = new CaffeineStatsCounter(registry, "sidecar.authz.decisions");
    var budget = CacheBudgets.decisions(config);
    this.cache = budget
      .<DecisionKey, Cached>apply(Caffeine.newBuilder(), (key, cached) -> CacheBudgets.DECISION_OVERHEAD
        + CacheBudget.bytesOf(key.tenant()) + CacheBudget.bytesOf(key.clientId()) + CacheBudget.bytesOf(key.userId())
        + CacheBudget.bytesOf(key.permission()))
      .ticker(ticker)
      .executor(executor)
      .expireAfter(Expiry.<DecisionKey, Cached>writing(
        (key, cached) -> Duration.ofNanos(lifetime(cached.decision(), allowLifetime, denyLifetime))))
      .evictionListener(this::evicted)
      .recordStats(() -> stats)
      .buildAsync();
    this.entries = cache.asMap();
    stats.registerSizeMetric(cache.synchronous());
    budget.gauge(registry, cache.synchronous());
    this.staleServed = Counter.builder("sidecar.authz.decisions.stale.served")
      .description("grants served past their TTL because Keycloak was unreachable or slow").register(registry);
    this.ended = new EndedSessions(config, ticker, registry);
    this.endedRefused = Counter.builder("sidecar.authz.ended.sessions.refused")
      .description("requests of ended sessions refused without asking Keycloak").register(registry);
    this.refreshes = Counter.builder("sidecar.authz.decisions.refreshes")
      .description("background re-checks of grants in use").register(registry);
    // read on each scrape, never on a request: a scan of the cache, which a 30-s scrape interval makes cheap
    Gauge.builder("sidecar.authz.decisions.oldest.grant.age", this, DecisionCache::oldestGrantAgeSeconds)
      .baseUnit("seconds").description("age of the oldest cached grant served without asking Keycloak again: how "
        + "long ago Keycloak last confirmed it (at most ALLOW_TTL; stale grants of an outage are counted apart)")
      .register(registry);
  }

  /**
   * The age of the oldest grant a request would be served without a Keycloak call: a permission revoked in
   * Keycloak may still be granted for as long as this, at most ALLOW_TTL (then a use waits for the re-check).
   */
  double oldestGrantAgeSeconds() {
    long now = ticker.read();
    long oldest = 0;
    for (var entry : entries.values()) {
      if (entry.isDone() && !entry.isCompletedExceptionally()) {
        var cached = entry.join();
        long age = now - cached.decidedAtNanos();
        if (cached.decision() == Decision.PERMIT && age < allowTtlNanos && age > oldest) {
          oldest = age;
        }
      }
    }
    return oldest / 1e9;
  }

  private static long lifetime(Decision decision, long allowLifetime, long denyLifetime) {
    return switch (decision) {
      case PERMIT -> allowLifetime;
      case DENY -> denyLifetime;
      // Keycloak refused the token itself: nothing to remember, the next token may be fine
      case UNAUTHENTICATED -> 0;
    };
  }

  @Override
  public Future<Decision> decide(AuthorizationRequest request) {
    switch (ended.of(request.tenant(), request.token())) {
      case ENDED -> {
        endedRefused.increment();
        DecisionLog.log(Reason.ENDED_SESSION_REFUSED, request);
        return UNAUTHENTICATED;
      }
      // Keycloak alone can tell whether the session outlived a logout-all: neither served nor cached
      case UNSURE -> {
        DecisionLog.log(Reason.SESSION_IN_DOUBT, request);
        return uncached(request);
      }
      case LIVE -> {
        // the cache below
      }
    }
    var key = DecisionKey.of(request.tenant(), request.permission(), request.token());
    var present = entries.get(key);
    if (present != null && present.isDone() && !present.isCompletedExceptionally()) {
      var cached = present.join();
      if (cached.removed().get()) {
        DecisionLog.log(Reason.REMOVED, request);
        return uncached(request);
      }
      long age = ticker.read() - cached.decidedAtNanos();
      if (cached.decision() != Decision.PERMIT) {
        stats.recordHits(1);
        DecisionLog.log(DecisionLog.hit(cached.decision()), request);
        return cached.decision() == Decision.DENY ? DENY : UNAUTHENTICATED;
      }
      if (age < cached.refreshAgeNanos()) {
        stats.recordHits(1);
        DecisionLog.log(Reason.HIT_PERMIT, request);
        return PERMIT;
      }
      if (age < allowTtlNanos) {
        stats.recordHits(1);
        DecisionLog.log(Reason.REFRESH, request);
        recheck(key, present, cached, request);
        return PERMIT;
      }
      return recheckStale(key, present, cached, request);
    }
    // a caller that joined another's call sees its failure through thenCompose, wrapped in a CompletionException:
    // unwrapped, an outage stays the 503 it is instead of an internal error (found by load/run-faults.sh)
    return Future.fromCompletionStage(insert(key, request)).map(Cached::decision)
      .recover(error -> afterFailedLoad(request, error));
  }

  /**
   * A load failed: an outage stays the 503 it is; a load Keycloak answered "not active" for another session of
   * the user (sharing the key, this caller joined it) says nothing of this caller's session, which asks again.
   */
  private Future<Decision> afterFailedLoad(AuthorizationRequest request, Throwable error) {
    var cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    if (cause instanceof SessionNotActive inactive) {
      return inactive.sessionId().equals(request.token().sessionId()) ? UNAUTHENTICATED : decide(request);
    }
    return Future.failedFuture(cause);
  }

  /**
   * Keycloak answered that the token's session is not active: the session joins the ended sessions, so it costs
   * Keycloak this one call, however often it is used again. A service token has no session to end.
   */
  private boolean endIfInactive(AuthorizationRequest request, Decision decision) {
    var sessionId = request.token().sessionId();
    if (decision != Decision.UNAUTHENTICATED || sessionId == null) {
      return false;
    }
    ended.endSession(request.tenant(), sessionId);
    return true;
  }

  /** Keycloak answered "not active" for the session of the call a load made; stackless, it is an expected answer. */
  private static final class SessionNotActive extends RuntimeException {

    private final String sessionId;

    SessionNotActive(String sessionId) {
      super("session not active", null, false, false);
      this.sessionId = sessionId;
    }

    String sessionId() {
      return sessionId;
    }
  }

  /**
   * The key's entry, created (and indexed, atomically with its creation) with a Keycloak call when there is
   * none; concurrent callers share it. A failed call removes the entry and its index entries.
   */
  private CompletableFuture<Cached> insert(DecisionKey key, AuthorizationRequest request) {
    var created = new CompletableFuture<Cached>();
    // the cache's own get: it runs the function atomically for the key and re-evaluates expiry on completion
    var entry = cache.get(key, (k, executor) -> {
      index(k);
      return created;
    });
    if (entry != created) {
      DecisionLog.log(Reason.JOINED, request);
      // the entry a lock-free read returned may be one being removed: then this caller asks Keycloak itself
      return entry.thenCompose(cached -> {
        if (!cached.removed().get()) {
          return CompletableFuture.completedFuture(cached);
        }
        DecisionLog.log(Reason.REMOVED, request);
        return uncached(request).map(this::cached).toCompletionStage();
      });
    }
    DecisionLog.log(Reason.MISS, request);
    keycloak.decide(request).onComplete(result -> {
      if (result.succeeded() && !endIfInactive(request, result.result())) {
        created.complete(cached(result.result()));
      } else {
        // "not active" is an answer about the asking session, not a decision for the user: nothing is cached
        removeIfSame(key, created);
        created.completeExceptionally(result.succeeded()
          ? new SessionNotActive(Objects.requireNonNull(request.token().sessionId()))
          : result.cause());
      }
    });
    return created;
  }

  /**
   * A decision Keycloak made on a miss. Its first re-check comes at a random point of its first refresh period,
   * every later one a whole period after the one before: keys first met together (a cold start, a morning's
   * logins) are then re-checked spread over the period instead of in one wave per period, and the number of
   * re-checks per period stays one per key in use (docs/authorization-cache.md, "Spreading the re-checks").
   */
  private Cached cached(Decision decision) {
    return new Cached(decision, ticker.read(), 1 + jitter.applyAsLong(refreshAfterNanos), new AtomicReference<>(),
      new AtomicBoolean());
  }

  /**
   * A decision for one caller, not cached: the entry it found was being removed as it read it, or a logout-all
   * of its user leaves its session in doubt.
   */
  private Future<Decision> uncached(AuthorizationRequest request) {
    stats.recordMisses(1);
    return keycloak.decide(request).onSuccess(decision -> endIfInactive(request, decision));
  }

  /**
   * The entry's re-check: the one in flight, else a new Keycloak call whose answer replaces the entry (if it
   * is still the cached one). A failed re-check is forgotten, so the next caller past refresh-after tries again.
   */
  private Recheck recheck(DecisionKey key, CompletableFuture<Cached> entry, Cached cached,
    AuthorizationRequest request) {
    var running = cached.recheck().get();
    if (running != null) {
      return running;
    }
    var answer = Promise.<Decision>promise();
    var sent = Promise.<Void>promise();
    var recheck = new Recheck(answer.future(), sent.future(), request.token().sessionId());
    if (!cached.recheck().compareAndSet(null, recheck)) {
      // another caller started one meanwhile (which may even have finished and been forgotten): look again
      return recheck(key, entry, cached, request);
    }
    refreshes.increment();
    keycloak.decide(request, () -> sent.tryComplete()).onComplete(result -> {
      if (result.succeeded() && !endIfInactive(request, result.result())) {
        replaceIfSame(key, entry, result.result());
      } else {
        // a failure, or "not active" said of the asking session only: the grant stays for the user's others
        cached.recheck().set(null);
      }
      sent.tryComplete();
      answer.handle(result);
    });
    return recheck;
  }

  /**
   * A grant past its TTL: ask again; if Keycloak does not answer (unreachable, or not within the stale wait once
   * it has the call), the grant serves until its staleness runs out (a late answer still replaces the entry). A
   * request that finds the re-check already at Keycloak is served at once: Keycloak has not answered another
   * request yet, it would only queue. A re-check still waiting in this sidecar's own queue is waited for, and a
   * full queue is a 503: being busy here is not Keycloak being unreachable, and a session Keycloak would refuse
   * must not be served meanwhile.
   */
  private Future<Decision> recheckStale(DecisionKey key, CompletableFuture<Cached> entry, Cached cached,
    AuthorizationRequest request) {
    stats.recordMisses(1);
    var running = cached.recheck().get();
    if (running != null && running.sent().isComplete() && !running.answer().isComplete()) {
      staleServed.increment();
      DecisionLog.log(Reason.STALE_SERVED, request);
      return PERMIT;
    }
    var recheck = recheck(key, entry, cached, request);
    return patiently(recheck).transform(result -> {
      if (result.succeeded()) {
        var decision = result.result();
        // "not active" said of another session of the user, whose re-check this caller shared: it asks for itself
        if (decision == Decision.UNAUTHENTICATED
          && !Objects.equals(recheck.sessionId(), request.token().sessionId())) {
          return decide(request);
        }
        DecisionLog.log(Reason.RECHECKED, request);
        return Future.succeededFuture(decision);
      }
      if (KeycloakUnreachable.is(result.cause()) && entries.get(key) == entry) {
        staleServed.increment();
        DecisionLog.log(Reason.STALE_SERVED, request);
        return PERMIT;
      }
      DecisionLog.log(Reason.RECHECK_FAILED, request);
      return Future.failedFuture(result.cause());
    });
  }

  /** The answer, or a 503 once the stale wait has run out first, counted from when Keycloak has the call. */
  private Future<Decision> patiently(Recheck recheck) {
    var answer = recheck.answer();
    if (answer.isComplete()) {
      return answer;
    }
    var patient = Promise.<Decision>promise();
    var cancel = new AtomicReference<Runnable>(() -> {
    });
    // the stale wait ran out: to the grant past its TTL, Keycloak is as good as unreachable for now
    recheck.sent().onSuccess(sent -> cancel.set(timers.schedule(staleWait, () -> patient.tryFail(
      KeycloakUnreachable.error("Keycloak slower than SIDECAR_AUTHZ_CACHE_STALE_WAIT", null)))));
    answer.onComplete(result -> {
      Objects.requireNonNull(cancel.get()).run();
      if (result.succeeded()) {
        patient.tryComplete(result.result());
      } else {
        patient.tryFail(result.cause());
      }
    });
    return patient.future();
  }

  /** Stores a fresh answer in place of {@code entry}, unless that entry has been evicted or invalidated meanwhile. */
  private void replaceIfSame(DecisionKey key, CompletableFuture<Cached> entry, Decision decision) {
    entries.computeIfPresent(key, (k, current) -> current == entry
      ? CompletableFuture.completedFuture(new Cached(decision, ticker.read(), refreshAfterNanos,
        new AtomicReference<>(), new AtomicBoolean()))
      : current);
  }

  private void removeIfSame(DecisionKey key, CompletableFuture<Cached> entry) {
    entries.computeIfPresent(key, (k, current) -> {
      if (current != entry) {
        return current;
      }
      unindex(k);
      return null;
    });
  }

  private void evicted(@Nullable DecisionKey key, @Nullable Cached value, RemovalCause cause) {
    if (value != null) {
      value.removed().set(true);
    }
    if (key != null) {
      unindex(key);
    }
  }

  private void index(DecisionKey key) {
    addTo(byTenant, key.tenant(), key);
    if (key.userId() != null) {
      addTo(byUser, new UserRef(key.tenant(), key.userId()), key);
    }
  }

  private void unindex(DecisionKey key) {
    removeFrom(byTenant, key.tenant(), key);
    if (key.userId() != null) {
      removeFrom(byUser, new UserRef(key.tenant(), key.userId()), key);
    }
  }

  // adding inside the index's compute, as removal does: a set another thread is dropping as empty never takes a key
  private static <K> void addTo(Map<K, Set<DecisionKey>> index, K indexKey, DecisionKey key) {
    index.compute(indexKey, (k, keys) -> {
      var set = keys == null ? ConcurrentHashMap.<DecisionKey>newKeySet() : keys;
      set.add(key);
      return set;
    });
  }

  private static <K> void removeFrom(Map<K, Set<DecisionKey>> index, K indexKey, DecisionKey key) {
    index.computeIfPresent(indexKey, (k, keys) -> {
      keys.remove(key);
      return keys.isEmpty() ? null : keys;
    });
  }

  /** A session ends; its user's decisions stay, for the user's other sessions. */
  @Override
  public void sessionEnded(String tenant, String sessionId) {
    ended.endSession(tenant, sessionId);
  }

  /**
   * The user's sessions up to the logout-all end, and the user's decisions go: a logout-all often comes with a
   * change to the user (a password reset, a block), so the next session asks Keycloak anew.
   */
  @Override
  public int userLoggedOut(String tenant, String userId, long atEpochMillis) {
    ended.endUser(tenant, userId, atEpochMillis / 1000);
    return invalidateUser(tenant, userId);
  }

  @Override
  public boolean sessionEnded(VerifiedToken token) {
    return ended.of(token.tenant(), token) == EndedSessions.State.ENDED;
  }

  private static SidecarError sessionNotInKey() {
    return SidecarError.badRequest("Decisions are kept per user, not per session (docs/authorization-cache.md): "
      + "give user");
  }

  /** Decisions are kept per user: a session has none of its own to flush. */
  @Override
  public int invalidateSession(String tenant, String sessionId) {
    throw sessionNotInKey();
  }

  @Override
  public int invalidateUser(String tenant, String userId) {
    return invalidate(byUser.get(new UserRef(tenant, userId)));
  }

  @Override
  public int invalidateTenant(String tenant) {
    return invalidate(byTenant.get(tenant));
  }

  @Override
  public int invalidateAll() {
    return invalidate(entries.keySet());
  }

  @Override
  public Optional<CacheLookup> lookup(String tenant, @Nullable String userId, @Nullable String sessionId, int limit) {
    if (sessionId != null) {
      throw sessionNotInKey();
    }
    var keys = userId != null ? byUser.get(new UserRef(tenant, userId)) : byTenant.get(tenant);
    if (keys == null) {
      return Optional.of(new CacheLookup(0, List.of()));
    }
    long now = ticker.read();
    var found = new ArrayList<CacheLookup.Entry>();
    int total = 0;
    for (var key : keys) {
      var entry = entries.get(key);
      if (entry == null) {
        continue;
      }
      total++;
      if (found.size() < limit) {
        found.add(describe(key, entry, now));
      }
    }
    return Optional.of(new CacheLookup(total, List.copyOf(found)));
  }

  private CacheLookup.Entry describe(DecisionKey key, CompletableFuture<Cached> entry, long now) {
    if (!entry.isDone() || entry.isCompletedExceptionally()) {
      return new CacheLookup.Entry(key.permission(), key.clientId(), key.userId(), null, null, null, null);
    }
    var cached = entry.join();
    long age = now - cached.decidedAtNanos();
    boolean grant = cached.decision() == Decision.PERMIT;
    long lifetime = grant ? allowLifetimeNanos : denyLifetimeNanos;
    return new CacheLookup.Entry(key.permission(), key.clientId(), key.userId(), cached.decision(),
      Duration.ofNanos(age), grant ? Duration.ofNanos(Math.max(0, cached.refreshAgeNanos() - age)) : null,
      Duration.ofNanos(Math.max(0, lifetime - age)));
  }

  /**
   * Removes each key's entry and its index entries together; the count is of entries actually removed, and is
   * counted as evictions with cause EXPLICIT (Caffeine counts only the removals it makes itself).
   */
  private int invalidate(@Nullable Set<DecisionKey> keys) {
    if (keys == null) {
      return 0;
    }
    var removed = new AtomicInteger();
    for (var key : Set.copyOf(keys)) {
      entries.computeIfPresent(key, (k, current) -> {
        if (current.isDone() && !current.isCompletedExceptionally()) {
          current.join().removed().set(true);
        }
        unindex(k);
        removed.incrementAndGet();
        return null;
      });
    }
    for (int i = 0; i < removed.get(); i++) {
      stats.recordEviction(1, RemovalCause.EXPLICIT);
    }
    return removed.get();
  }

  /** The keys cached now, loads in flight included, after Caffeine's pending maintenance; for tests. */
  Set<DecisionKey> cachedKeys() {
    cache.synchronous().cleanUp();
    return Set.copyOf(entries.keySet());
  }

  /** How many ended sessions are remembered, after pending maintenance; for tests. */
  long endedSessions() {
    return ended.sessionCount();
  }

  /** The keys in the tenant and user indexes; for tests. */
  Set<DecisionKey> indexedKeys(boolean tenants, boolean users) {
    var keys = new HashSet<DecisionKey>();
    if (tenants) {
      byTenant.values().forEach(keys::addAll);
    }
    if (users) {
      byUser.values().forEach(keys::addAll);
    }
    return keys;
  }
}
