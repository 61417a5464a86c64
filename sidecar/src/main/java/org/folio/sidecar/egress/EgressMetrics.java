package org.folio.sidecar.egress;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.AsyncResult;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.folio.sidecar.error.SidecarError;

/**
 * Egress calls per target module ({@code sidecar_egress_requests_seconds}), with the outcome and whose fault a
 * failure is: the target's (unreachable, too slow, answering 5xx) or the sidecar's own (no token, no secret, no
 * route). Blaming the target for a missing secret would send an operator to the wrong team. All outcomes of a
 * module exist from its first call on, so an alert's rate over the error outcomes is defined before the first
 * error; the gateway's exist from start-up.
 */
final class EgressMetrics {

  enum Outcome {
    OK("ok", "none"), SERVER_ERROR("server_error", "target"), CONNECT_ERROR("connect_error", "target"), TIMEOUT(
      "timeout", "target"), TOKEN_ERROR("token_error", "sidecar"), SECRET_ERROR("secret_error",
        "sidecar"), ROUTING_ERROR("routing_error", "sidecar"), INTERNAL_ERROR("internal_error", "sidecar");

    private final String label;
    private final String fault;

    Outcome(String label, String fault) {
      this.label = label;
      this.fault = fault;
    }
  }

  private final MeterRegistry registry;
  // keyed by module name: one of the modules the routing table names, or the gateway
  private final Map<String, Map<Outcome, Timer>> timers = new ConcurrentHashMap<>();

  EgressMetrics(MeterRegistry registry, String gateway) {
    this.registry = registry;
    timers(gateway);
  }

  /** A call that got as far as the target (or failed on the way); {@code status} is what the caller got. */
  void record(String module, AsyncResult<Void> result, int status, long nanos) {
    var outcome = result.succeeded() ? status >= 500 ? Outcome.SERVER_ERROR : Outcome.OK : classify(result.cause());
    timer(module, outcome).record(nanos, TimeUnit.NANOSECONDS);
  }

  /** The module has no known location: the sidecar's routing, not the target, failed. */
  void routingFailed(String module) {
    timer(module, Outcome.ROUTING_ERROR).record(0, TimeUnit.NANOSECONDS);
  }

  static Outcome classify(Throwable cause) {
    if (!(cause instanceof SidecarError error)) {
      return Outcome.INTERNAL_ERROR;
    }
    return switch (error.type()) {
      case "BadGatewayException" -> Outcome.CONNECT_ERROR;
      case "GatewayTimeoutException" -> Outcome.TIMEOUT;
      case "SecretNotFoundException", "SecureStoreServiceException" -> Outcome.SECRET_ERROR;
      // what is left failed before the target was called: the service or system user token, or the target's
      // refusal of it
      default -> Outcome.TOKEN_ERROR;
    };
  }

  private Timer timer(String module, Outcome outcome) {
    return Objects.requireNonNull(timers(module).get(outcome));
  }

  private Map<Outcome, Timer> timers(String module) {
    return timers.computeIfAbsent(module, name -> {
      var byOutcome = new EnumMap<Outcome, Timer>(Outcome.class);
      for (var outcome : Outcome.values()) {
        byOutcome.put(outcome, Timer.builder("sidecar.egress.requests")
          .description("egress calls per target module, by outcome and whose fault a failure is")
          .tag("module", name).tag("outcome", outcome.label).tag("fault", outcome.fault).register(registry));
      }
      return byOutcome;
    });
  }
}
