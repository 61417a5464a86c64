package org.folio.sidecar.token;

import io.netty.channel.ConnectTimeoutException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import jakarta.inject.Singleton;
import java.net.ConnectException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.folio.sidecar.config.KeycloakConfig;
import org.folio.sidecar.time.Timers;
import org.jspecify.annotations.Nullable;

/**
 * Sends one Keycloak call under its limits, each protecting something else (docs/configuration.md, "Keycloak
 * timeouts"): the client's connect timeout (KC_CONNECT_TIMEOUT) fails a Keycloak whose address accepts no
 * connection fast, a refused connection fails at once; the read-idle timeout (KC_READ_IDLE_TIMEOUT, upstream's
 * KC_CLIENT_READ_IDLE_TIMEOUT) ends a call or a pooled connection on which nothing arrives, e.g. half-open after
 * Keycloak's pod died; the deadline (KC_REQUEST_TIMEOUT, upstream's KC_REQUEST_TIMEOUT_MS) bounds the whole call,
 * from asking for a pooled connection to the answer's last byte, so it is what a user waits at most for a
 * decision Keycloak is slow to make. At most KC_MAX_CONCURRENT_CALLS calls are in flight at once, the others wait
 * within their deadline, at most KC_MAX_QUEUED_CALLS of them, tenants and their users taking turns
 * ({@link CallLimit}): a fleet restarted with empty caches does not send Keycloak every miss at once, and one
 * tenant's flood does not hold another's call. A call that never got a slot fails as {@link Failure#BUSY}. Failures are named as what they are: a slow answer is a
 * timeout, not an unreachable Keycloak.
 */
@Singleton
public class KeycloakCalls {

  /** How a call failed, as the {@code outcome} of metrics and the reason of logs say it. */
  public enum Failure {
    /** No answer within a limit: Keycloak (or the network to it) is slow or stalled. */
    TIMEOUT("timeout"),
    /** Nothing listens at KC_URL: Keycloak is down or its address is wrong. */
    REFUSED("refused"),
    /** Anything else on the way: a connection reset or closed mid-call, a TLS failure. */
    ERROR("error"),
    /**
     * Never sent: the sidecar's own queue of calls was full, or the call's deadline ran out while it waited for a
     * slot. Keycloak was not asked, so this is no sign that it is unreachable.
     */
    BUSY("busy");

    private final String label;

    Failure(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  private final Timers timers;
  private final Duration deadline;
  private final long idleMillis;
  private final CallLimit limit;

  KeycloakCalls(Timers timers, KeycloakConfig config) {
    this.timers = timers;
    this.deadline = config.requestTimeout();
    this.idleMillis = Math.min(config.readIdleTimeout().toMillis(), deadline.toMillis());
    this.limit = new CallLimit(config.maxConcurrentCalls(), config.maxQueuedCalls());
  }

  /**
   * Sends {@code request} with {@code send} (e.g. {@code r -> r.sendForm(form)}) under the call's limits, on behalf
   * of {@code user} of {@code tenant} (null for the tenant itself), whose turn it waits for when every slot is taken.
   */
  public <T> Future<HttpResponse<T>> send(String tenant, @Nullable String user, HttpRequest<T> request,
    Function<HttpRequest<T>, Future<HttpResponse<T>>> send) {
    return send(tenant, user, request, send, () -> {
    });
  }

  /**
   * The same, running {@code sent} when the call leaves the queue for Keycloak. A call that never does (the queue
   * is full, or its deadline runs out while it waits) fails with an error {@link #isBusy}: this sidecar was busy,
   * Keycloak was not asked.
   */
  public <T> Future<HttpResponse<T>> send(String tenant, @Nullable String user, HttpRequest<T> request,
    Function<HttpRequest<T>, Future<HttpResponse<T>>> send, Runnable sent) {
    var answer = Promise.<HttpResponse<T>>promise();
    var started = new AtomicBoolean();
    // the deadline fails the caller, waiting for a slot or not; the request's own idle timeout (never above it)
    // then frees its connection, and a call still waiting is never sent
    var cancel = timers.schedule(deadline, () -> answer.tryFail(started.get()
      ? new DeadlineExceeded(deadline)
      : new CallLimit.Busy("no Keycloak call slot within " + deadline.toMillis() + " ms")));
    limit.submit(new CallLimit.Share(tenant, user == null ? "" : user), () -> {
      started.set(true);
      sent.run();
      return send.apply(request.idleTimeout(idleMillis));
    }, () -> answer.future().isComplete())
      .onComplete(result -> {
        cancel.run();
        if (result.succeeded()) {
          answer.tryComplete(result.result());
        } else {
          answer.tryFail(result.cause());
        }
      });
    return answer.future();
  }

  /**
   * Whether {@code error}, or anything that caused it, is the sidecar's own queue refusing or timing out a call
   * that was never sent: Keycloak may be perfectly reachable, so nothing cached may be served for its sake.
   */
  @SuppressWarnings("ReferenceEquality") // identity: the walk ends at an error that is its own cause
  public static boolean isBusy(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
      if (cause instanceof CallLimit.Busy) {
        return true;
      }
    }
    return false;
  }

  public static Failure classify(Throwable error) {
    if (error instanceof CallLimit.Busy) {
      return Failure.BUSY;
    }
    if (error instanceof TimeoutException || error instanceof ConnectTimeoutException) {
      return Failure.TIMEOUT;
    }
    return error instanceof ConnectException ? Failure.REFUSED : Failure.ERROR;
  }

  /** The reason an operator reads in the log and the access line: which limit, or what failed; never a token. */
  public String describe(Throwable error) {
    if (error instanceof DeadlineExceeded) {
      return "Keycloak did not answer within " + deadline.toMillis() + " ms (KC_REQUEST_TIMEOUT)";
    }
    if (error instanceof CallLimit.Busy) {
      return "too many Keycloak calls at once, Keycloak not asked: " + error.getMessage()
        + " (KC_MAX_CONCURRENT_CALLS, KC_MAX_QUEUED_CALLS)";
    }
    if (error instanceof ConnectTimeoutException) {
      return "Keycloak did not accept a connection in time (KC_CONNECT_TIMEOUT)";
    }
    return switch (classify(error)) {
      case TIMEOUT -> "Keycloak sent nothing for " + idleMillis + " ms (KC_READ_IDLE_TIMEOUT)";
      case REFUSED -> "Keycloak refused the connection";
      case ERROR -> "the connection to Keycloak failed: " + error.getClass().getSimpleName();
      case BUSY -> "too many Keycloak calls at once, Keycloak not asked";
    };
  }

  /** The whole-call deadline ran out; stackless, it is an expected outcome. */
  static final class DeadlineExceeded extends TimeoutException {

    DeadlineExceeded(Duration deadline) {
      super("no answer within " + deadline.toMillis() + " ms");
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this;
    }
  }
}
