package org.folio.sidecar.token;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * At most {@code maxInFlight} calls at once, the others waiting, at most {@code maxQueued} of them. Slots are
 * shared fairly rather than first come, first served: the waiting calls are queued by tenant, and within a tenant
 * by user, and a freed slot goes to the next tenant in turn (round robin, every call costing one slot, which is
 * deficit round robin with a quantum of one) and within it to the next user in turn. So a tenant whose users send
 * a thousand calls waits behind itself: another tenant's one call gets the next free slot.
 *
 * <p>When the queue is full a newcomer is not refused for what others hold: the newest call of the longest
 * tenant's longest user is pushed out instead, unless the newcomer is of that tenant and user. Either way the call
 * that loses fails with {@link Busy}, as does a call whose caller gave up (its deadline ran out) before its turn:
 * the sidecar was busy, Keycloak was not asked, and nothing may treat it as Keycloak being unreachable.
 *
 * <p>The critical sections only count and queue; a call starts outside them, on the Vert.x context of its caller.
 */
final class CallLimit {

  /** Who a call is for, the unit of fairness: a tenant (realm), and a user within it ("" for the tenant itself). */
  record Share(String tenant, String user) {
  }

  private static final class Waiting {

    final Runnable start;
    final Promise<?> result;
    final BooleanSupplier abandoned;
    final @Nullable Context context;

    Waiting(Runnable start, Promise<?> result, BooleanSupplier abandoned, @Nullable Context context) {
      this.start = start;
      this.result = result;
      this.abandoned = abandoned;
      this.context = context;
    }
  }

  /** One tenant's waiting calls, by user, its users taking turns. */
  private static final class TenantQueue {

    final String tenant;
    final Map<String, ArrayDeque<Waiting>> byUser = new HashMap<>();
    /** Users with waiting calls, the next to be served first. */
    final ArrayDeque<String> turns = new ArrayDeque<>();
    int size;

    TenantQueue(String tenant) {
      this.tenant = tenant;
    }
  }

  private final int maxInFlight;
  private final int maxQueued;
  private final Map<String, TenantQueue> tenants = new HashMap<>();
  /** Tenants with waiting calls, the next to be served first. */
  private final ArrayDeque<TenantQueue> turns = new ArrayDeque<>();
  private int queued;
  private int inFlight;

  CallLimit(int maxInFlight, int maxQueued) {
    this.maxInFlight = maxInFlight;
    this.maxQueued = maxQueued;
  }

  /**
   * Runs {@code call} now if fewer than the limit are in flight, else when its share's turn comes; a waiting call
   * for which {@code abandoned} is true by then is never run. Fails with {@link Busy} if it is pushed out of a full
   * queue.
   */
  <T> Future<T> submit(Share share, Supplier<Future<T>> call, BooleanSupplier abandoned) {
    var result = Promise.<T>promise();
    Runnable start = () -> {
      Future<T> running;
      try {
        running = call.get();
      } catch (RuntimeException e) {
        running = Future.failedFuture(e);
      }
      running.onComplete(outcome -> {
        release();
        result.handle(outcome);
      });
    };
    boolean runNow;
    Waiting pushedOut = null;
    synchronized (this) {
      runNow = inFlight < maxInFlight;
      if (runNow) {
        inFlight++;
      } else {
        if (queued >= maxQueued) {
          pushedOut = pushOutFor(share);
          if (pushedOut == null) {
            return Future.failedFuture(full());
          }
        }
        enqueue(share, new Waiting(start, result, abandoned, Vertx.currentContext()));
      }
    }
    if (pushedOut != null) {
      pushedOut.result.tryFail(full());
    }
    if (runNow) {
      start.run();
    }
    return result.future();
  }

  synchronized int inFlight() {
    return inFlight;
  }

  synchronized int queued() {
    return queued;
  }

  private void enqueue(Share share, Waiting waiting) {
    var tenant = tenants.computeIfAbsent(share.tenant(), TenantQueue::new);
    if (tenant.size == 0) {
      turns.addLast(tenant);
    }
    var calls = tenant.byUser.computeIfAbsent(share.user(), unused -> new ArrayDeque<>());
    if (calls.isEmpty()) {
      tenant.turns.addLast(share.user());
    }
    calls.addLast(waiting);
    tenant.size++;
    queued++;
  }

  /**
   * Takes the newest waiting call of the longest tenant's longest user (the newest of equals), unless {@code share} is that user (or, when
   * its tenant is the longest, no shorter than the longest user): that newcomer is the one refused.
   */
  private @Nullable Waiting pushOutFor(Share share) {
    TenantQueue longest = null;
    for (var tenant : turns) {
      // among equals the newest: the oldest waiting keep their place, so a stream of newcomers cannot starve them
      if (longest == null || tenant.size >= longest.size) {
        longest = tenant;
      }
    }
    if (longest == null) {
      return null;
    }
    var own = tenants.get(share.tenant());
    if (own != null && own.size >= longest.size) {
      longest = own;
    }
    String longestUser = null;
    int longestCalls = 0;
    for (var user : longest.turns) {
      int calls = calls(longest, user).size();
      if (calls >= longestCalls) {
        longestUser = user;
        longestCalls = calls;
      }
    }
    if (longestUser == null) {
      return null;
    }
    if (longest.tenant.equals(share.tenant())) {
      var ownCalls = longest.byUser.get(share.user());
      if (ownCalls != null && ownCalls.size() >= longestCalls) {
        return null;
      }
    }
    var calls = calls(longest, longestUser);
    var newest = calls.pollLast();
    removed(longest, longestUser, calls);
    return newest;
  }

  /** The next waiting call in turn, or null; takes it out of the queue. Under the lock. */
  private @Nullable Waiting next() {
    var tenant = turns.pollFirst();
    if (tenant == null) {
      return null;
    }
    var user = Objects.requireNonNull(tenant.turns.pollFirst());
    var calls = calls(tenant, user);
    var next = calls.pollFirst();
    // the tenant and its user go to the back of their turns if they still wait, behind everyone else
    if (!calls.isEmpty()) {
      tenant.turns.addLast(user);
    }
    removed(tenant, user, calls);
    if (tenant.size > 0) {
      turns.addLast(tenant);
    }
    return next;
  }

  private static ArrayDeque<Waiting> calls(TenantQueue tenant, String user) {
    return Objects.requireNonNull(tenant.byUser.get(user));
  }

  private Busy full() {
    return new Busy(maxInFlight + " Keycloak calls in flight and " + maxQueued + " waiting");
  }

  private void removed(TenantQueue tenant, String user, ArrayDeque<Waiting> calls) {
    tenant.size--;
    queued--;
    if (calls.isEmpty()) {
      tenant.byUser.remove(user);
      tenant.turns.remove(user);
    }
    if (tenant.size == 0) {
      tenants.remove(tenant.tenant);
      turns.remove(tenant);
    }
  }

  /** A call completed: its slot goes to the next waiting call in turn still wanted, on that caller's context. */
  private void release() {
    Waiting next;
    synchronized (this) {
      do {
        next = next();
      } while (next != null && next.abandoned.getAsBoolean());
      if (next == null) {
        inFlight--;
        return;
      }
    }
    var context = next.context;
    var start = next.start;
    if (context == null) {
      start.run();
    } else {
      context.runOnContext(ignored -> start.run());
    }
  }

  /**
   * The sidecar's own queue, not Keycloak, kept a call from being sent: the queue was full, or the call was pushed
   * out of it for another tenant's or user's. Stackless, it is expected.
   */
  static final class Busy extends RuntimeException {

    Busy(String message) {
      super(message);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this;
    }
  }
}
