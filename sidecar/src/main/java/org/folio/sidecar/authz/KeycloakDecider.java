package org.folio.sidecar.authz;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.ext.web.client.WebClient;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.config.ConfigValidator;
import org.folio.sidecar.config.KeycloakConfig;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.tracing.Tracing;

/**
 * Asks Keycloak's UMA endpoint for a decision, as upstream does, with {@code response_mode=decision} so that
 * Keycloak answers {@code {"result":true}} instead of minting a full RPT (about a third of the cost).
 */
@Singleton
@Typed(KeycloakDecider.class)
public class KeycloakDecider implements AuthorizationDecider {

  private static final String UMA_GRANT = "urn:ietf:params:oauth:grant-type:uma-ticket";

  private final WebClient client;
  private final KeycloakConfig config;
  private final String baseUrl;
  private final Map<String, String> tokenUrlByTenant = new ConcurrentHashMap<>();
  private final boolean decisionOnly;

  private final Timer permitted;
  private final Timer denied;
  private final Timer rejected;
  private final Timer failed;

  KeycloakDecider(@Named("keycloak") WebClient client, KeycloakConfig config, AuthzCacheConfig cache,
    MeterRegistry registry) {
    this.client = client;
    this.config = config;
    // upstream v3.0.18 asks for a full RPT; legacy mode, its baseline, asks the same (about 3x dearer per miss)
    this.decisionOnly = cache.mode() == AuthzCacheConfig.Mode.OPTIMIZED;
    this.permitted = timer(registry, "permit");
    this.denied = timer(registry, "deny");
    this.rejected = timer(registry, "unauthenticated");
    this.failed = timer(registry, "error");
    this.baseUrl = ConfigValidator.withoutTrailingSlash(config.url());
  }

  @Override
  public Future<Decision> decide(AuthorizationRequest request) {
    var tenant = request.tenant();
    var form = MultiMap.caseInsensitiveMultiMap()
      .add("grant_type", UMA_GRANT)
      .add("audience", tenant + config.loginClientSuffix())
      .add("permission", request.permission());
    if (decisionOnly) {
      form.add("response_mode", "decision");
    }
    long started = System.nanoTime();
    return client.postAbs(tokenUrlByTenant.computeIfAbsent(tenant,
      t -> baseUrl + "/realms/" + t + "/protocol/openid-connect/token"))
      .timeout(config.requestTimeout().toMillis())
      .traceOperation(Tracing.OPERATION_DECISION)
      .putHeader("Authorization", "Bearer " + request.token().raw())
      .sendForm(form)
      .transform(result -> {
        record(result.failed() ? 0 : result.result().statusCode(), System.nanoTime() - started);
        if (result.failed()) {
          return Future.failedFuture(SidecarError.keycloakUnavailable(
            "Keycloak is unreachable: " + result.cause().getClass().getSimpleName()));
        }
        return switch (result.result().statusCode()) {
          case 200 -> Future.succeededFuture(Decision.PERMIT);
          // 400 is Keycloak not knowing the resource or scope: nothing grants it, as upstream treats it
          case 400, 403 -> Future.succeededFuture(Decision.DENY);
          case 401 -> Future.succeededFuture(Decision.UNAUTHENTICATED);
          default -> Future.failedFuture(SidecarError.keycloakUnavailable(
            "Keycloak answered " + result.result().statusCode()));
        };
      });
  }

  private void record(int status, long nanos) {
    var timer = switch (status) {
      case 200 -> permitted;
      case 400, 403 -> denied;
      case 401 -> rejected;
      default -> failed;
    };
    timer.record(nanos, TimeUnit.NANOSECONDS);
  }

  private static Timer timer(MeterRegistry registry, String outcome) {
    return Timer.builder("sidecar.keycloak.decisions")
      .description("UMA decision calls to Keycloak")
      .tag("outcome", outcome)
      .publishPercentileHistogram()
      .publishPercentiles(0.5, 0.95, 0.99)
      .register(registry);
  }
}
