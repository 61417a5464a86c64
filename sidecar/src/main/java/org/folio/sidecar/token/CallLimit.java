package org.folio.sidecar.token;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayDeque;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * At most {@code maxInFlight} calls at once; later ones wait their turn in order, at most {@code maxQueued} of
 * them, and past that fail at once with {@link QueueFull}. A waiting call whose caller gave up (its deadline ran
 * out) is dropped when its turn comes instead of being sent. So a fleet started with empty caches, each sidecar
 * missing every key at once, sends Keycloak a bounded number of calls at a time (docs/configuration.md,
 * "Keycloak timeouts").
 *
 * <p>The critical sections only count and queue; a call starts outside them, on the Vert.x context of its caller.
 */
final class CallLimit {

  private record Waiting(Runnable start, BooleanSupplier abandoned, @Nullable Context context) {
  }

  private final int maxInFlight;
  private final int maxQueued;
  private final ArrayDeque<Waiting> queue = new ArrayDeque<>();
  private int inFlight;

  CallLimit(int maxInFlight, int maxQueued) {
    this.maxInFlight = maxInFlight;
    this.maxQueued = maxQueued;
  }

  /**
   * Runs {@code call} now if fewer than the limit are in flight, else once an earlier one completes; a waiting call
   * for which {@code abandoned} is true by then is never run.
   */
  <T> Future<T> submit(Supplier<Future<T>> call, BooleanSupplier abandoned) {
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
    synchronized (this) {
      if (inFlight >= maxInFlight) {
        if (queue.size() >= maxQueued) {
          return Future.failedFuture(new QueueFull(maxInFlight, maxQueued));
        }
        queue.add(new Waiting(start, abandoned, Vertx.currentContext()));
        return result.future();
      }
      inFlight++;
    }
    start.run();
    return result.future();
  }

  synchronized int inFlight() {
    return inFlight;
  }

  synchronized int queued() {
    return queue.size();
  }

  /** A call completed: its slot goes to the oldest waiting call still wanted, on that caller's context. */
  private void release() {
    Waiting next;
    synchronized (this) {
      do {
        next = queue.poll();
      } while (next != null && next.abandoned().getAsBoolean());
      if (next == null) {
        inFlight--;
        return;
      }
    }
    var context = next.context();
    if (context == null) {
      next.start().run();
    } else {
      var start = next.start();
      context.runOnContext(ignored -> start.run());
    }
  }

  /** The queue was full: Keycloak is already sent all it may take from this sidecar; stackless, it is expected. */
  static final class QueueFull extends RuntimeException {

    QueueFull(int maxInFlight, int maxQueued) {
      super(maxInFlight + " Keycloak calls in flight and " + maxQueued + " waiting");
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this;
    }
  }
}
