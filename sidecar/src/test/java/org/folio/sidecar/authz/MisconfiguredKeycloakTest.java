package org.folio.sidecar.authz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.folio.sidecar.support.SidecarCalls.get;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.folio.sidecar.support.LogCapture;
import org.folio.sidecar.support.SidecarCalls;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.Test;

/**
 * Issue 36: folio-helm-v2's {@code KC_LOGIN_CLIENT_SUFFIX=-application} against realms whose login client is
 * {@code <tenant>-login-application}. The real Keycloak answers the UMA call 400 invalid_request "Unknown resource
 * server id": the permitted user gets a 503 with the reason, not a 403 that looks like a denial; the metric counts
 * {@code misconfigured}, not {@code deny}; one WARN line says why, however many requests fail.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true, initArgs = {
  @ResourceArg(name = "kc.login-client-suffix", value = "-application"),
  @ResourceArg(name = "kc.error-log-interval", value = "1h")})
class MisconfiguredKeycloakTest {

  private final TestPlatform platform = TestPlatform.get();

  @Test
  void aMissingLoginClientIsA503WithItsReasonOnceInTheLogAndCountedAsMisconfigured() {
    var token = platform.tokens().login(platform.alpha(), platform.alpha().allowed()).getString("access_token");
    try (var logs = LogCapture.install()) {
      get("alpha", token, "/items/61").statusCode(503)
        .body("errors[0].code", equalTo("service_error"))
        .body("errors[0].message", equalTo("Authorization service is unavailable"));
      get("alpha", token, "/items").statusCode(503);

      var causeLines = logs.lines().stream().filter(line -> line.contains("Keycloak authorization misconfigured"))
        .toList();
      assertThat(causeLines).hasSize(1);
      assertThat(causeLines.get(0)).contains("client alpha-application in realm alpha", "KC_LOGIN_CLIENT_SUFFIX",
        "Unknown resource server id").doesNotContain(token);
    }
    SidecarCalls.metrics()
      .body(containsString("sidecar_keycloak_decisions_seconds_count{outcome=\"misconfigured\"} 2.0"))
      .body(containsString("sidecar_keycloak_decisions_seconds_count{outcome=\"deny\"} 0.0"));
  }
}
