package org.folio.sidecar.authz;

import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.config.ConfigValidator;
import org.folio.sidecar.config.KeycloakConfig;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.token.KeycloakCalls;
import org.jboss.logging.Logger;
import org.jspecify.annotations.Nullable;
import org.folio.sidecar.tracing.Tracing;

/**
 * Asks Keycloak's UMA endpoint for a decision, as upstream does, with {@code response_mode=decision} so that
 * Keycloak answers {@code {"result":true}} instead of minting a full RPT (about a third of the cost).
 *
 * <p>Only Keycloak's decisions are decisions: an answer that says the question itself is wrong (the audience
 * client {@code <tenant>KC_LOGIN_CLIENT_SUFFIX} or the realm does not exist) is a misconfiguration, and a slow,
 * refused or failing call is a Keycloak problem; each is a 503 with its reason, counted under its own outcome and
 * logged once per KC_ERROR_LOG_INTERVAL, never a 403 that looks like a denial (docs/deviations.md).
 */
@Singleton
@Typed(KeycloakDecider.class)
public class KeycloakDecider implements AuthorizationDecider {

  private static final Logger LOGGER = Logger.getLogger(KeycloakDecider.class);
  private static final String UMA_GRANT = "urn:ietf:params:oauth:grant-type:uma-ticket";
  /** Keycloak's own error descriptions are short; a longer one is cut rather than logged whole. */
  private static final int MAX_DESCRIPTION = 200;

  /** What one UMA call came to: the {@code outcome} label of {@code sidecar_keycloak_decisions_seconds}. */
  enum Outcome {
    PERMIT, DENY, UNAUTHENTICATED,
    /** Keycloak cannot evaluate the question: no such audience client or realm (400 invalid_request, 404). */
    MISCONFIGURED,
    /** No answer within a limit. */
    TIMEOUT,
    /** Nothing listens at KC_URL. */
    REFUSED,
    /** Another status (5xx, unexpected 4xx) or a failed connection. */
    ERROR,
    /** Not asked: the sidecar's own Keycloak call queue was full or its wait ran out ({@link KeycloakCalls}). */
    BUSY;

    final String label = name().toLowerCase(Locale.ROOT);
  }

  private final WebClient client;
  private final KeycloakCalls calls;
  private final KeycloakConfig config;
  private final String baseUrl;
  private final Map<String, String> tokenUrlByTenant = new ConcurrentHashMap<>();
  private final boolean decisionOnly;
  private final Map<Outcome, Timer> timers = new EnumMap<>(Outcome.class);
  private final FailureLog failureLog;

  KeycloakDecider(@Named("keycloak") WebClient client, KeycloakCalls calls, KeycloakConfig config,
    AuthzCacheConfig cache, MeterRegistry registry, Ticker ticker) {
    this.client = client;
    this.calls = calls;
    this.config = config;
    // upstream v3.0.18 asks for a full RPT; legacy mode, its baseline, asks the same (about 3x dearer per miss)
    this.decisionOnly = cache.mode() == AuthzCacheConfig.Mode.OPTIMIZED;
    // every outcome from the start: an alert's rate over a failure outcome is defined before the first failure
    for (var outcome : Outcome.values()) {
      timers.put(outcome, timer(registry, outcome.label));
    }
    this.failureLog = new FailureLog(ticker, config.errorLogInterval(), LOGGER::warn);
    this.baseUrl = ConfigValidator.withoutTrailingSlash(config.url());
  }

  @Override
  public Future<Decision> decide(AuthorizationRequest request) {
    return decide(request, () -> {
    });
  }

  @Override
  public Future<Decision> decide(AuthorizationRequest request, Runnable sent) {
    var tenant = request.tenant();
    var form = MultiMap.caseInsensitiveMultiMap()
      .add("grant_type", UMA_GRANT)
      .add("audience", tenant + config.loginClientSuffix())
      .add("permission", request.permission());
    if (decisionOnly) {
      form.add("response_mode", "decision");
    }
    long started = System.nanoTime();
    var post = client.postAbs(tokenUrlByTenant.computeIfAbsent(tenant,
      t -> baseUrl + "/realms/" + t + "/protocol/openid-connect/token"))
      .traceOperation(Tracing.OPERATION_DECISION)
      .putHeader("Authorization", "Bearer " + request.token().raw());
    return calls.send(tenant, request.token().subject(), post, uma -> uma.sendForm(form), sent).transform(result -> {
      if (result.failed()) {
        var cause = result.cause();
        var outcome = switch (KeycloakCalls.classify(cause)) {
          case TIMEOUT -> Outcome.TIMEOUT;
          case REFUSED -> Outcome.REFUSED;
          case ERROR -> Outcome.ERROR;
          case BUSY -> Outcome.BUSY;
        };
        var reason = calls.describe(cause);
        // never asked: this sidecar is busy, which serves no grant stale
        return failed(outcome, started, reason, KeycloakCalls.isBusy(cause)
          ? SidecarError.keycloakUnavailable(reason).causedBy(cause)
          : KeycloakUnreachable.error(reason, cause));
      }
      var response = result.result();
      return switch (response.statusCode()) {
        case 200 -> decided(Outcome.PERMIT, Decision.PERMIT, started);
        case 400, 403 -> {
          var invalidRequest = invalidRequest(response);
          // otherwise 400 is Keycloak not knowing the resource or scope: nothing grants it, as upstream treats it
          yield invalidRequest == null
            ? decided(Outcome.DENY, Decision.DENY, started)
            : failed(Outcome.MISCONFIGURED, started, "Keycloak cannot evaluate permissions of client " + tenant
              + config.loginClientSuffix() + " in realm " + tenant + " (KC_LOGIN_CLIENT_SUFFIX): " + invalidRequest);
        }
        case 401 -> decided(Outcome.UNAUTHENTICATED, Decision.UNAUTHENTICATED, started);
        case 404 -> failed(Outcome.MISCONFIGURED, started, "Keycloak answered 404 for the token endpoint of realm "
          + tenant + ": no such realm, or KC_URL is wrong");
        default -> {
          var reason = "Keycloak answered " + response.statusCode();
          yield failed(Outcome.ERROR, started, reason, response.statusCode() >= 500
            ? KeycloakUnreachable.error(reason, null)
            : SidecarError.keycloakUnavailable(reason));
        }
      };
    });
  }

  /** Keycloak's description of an {@code invalid_request}: the question cannot be asked; null for a decision. */
  private static @Nullable String invalidRequest(HttpResponse<Buffer> response) {
    try {
      var body = response.bodyAsJsonObject();
      if (body == null || !"invalid_request".equals(body.getString("error"))) {
        return null;
      }
      var description = String.valueOf(body.getString("error_description"));
      return description.length() > MAX_DESCRIPTION ? description.substring(0, MAX_DESCRIPTION) : description;
    } catch (RuntimeException notJson) {
      return null;
    }
  }

  private Future<Decision> decided(Outcome outcome, Decision decision, long started) {
    record(outcome, started);
    return Future.succeededFuture(decision);
  }

  private Future<Decision> failed(Outcome outcome, long started, String reason) {
    return failed(outcome, started, reason, SidecarError.keycloakUnavailable(reason));
  }

  private Future<Decision> failed(Outcome outcome, long started, String reason, SidecarError error) {
    record(outcome, started);
    failureLog.warn(outcome.label, "Keycloak authorization " + outcome.label + ": " + reason
      + "; decisions not cached answer 503, cached grants serve up to SIDECAR_AUTHZ_CACHE_MAX_STALENESS only while "
      + "Keycloak does not answer");
    return Future.failedFuture(error);
  }

  private void record(Outcome outcome, long started) {
    long elapsed = System.nanoTime() - started;
    Objects.requireNonNull(timers.get(outcome)).record(elapsed, TimeUnit.NANOSECONDS);
    if (LOGGER.isDebugEnabled()) {
      LOGGER.debugf("Keycloak UMA decision call: %s after %d ms", outcome.label,
        TimeUnit.NANOSECONDS.toMillis(elapsed));
    }
  }

  private static Timer timer(MeterRegistry registry, String outcome) {
    return Timer.builder("sidecar.keycloak.decisions")
      .description("UMA decision calls to Keycloak, by outcome: permit, deny, unauthenticated (decisions); "
        + "misconfigured, timeout, refused, error, busy (failures, answered 503; busy: Keycloak not asked)")
      .tag("outcome", outcome)
      .publishPercentileHistogram()
      .publishPercentiles(0.5, 0.95, 0.99)
      .register(registry);
  }
}
