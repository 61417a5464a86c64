package org.folio.sidecar.authz;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.folio.sidecar.support.TestCacheConfig;
import org.folio.sidecar.testkit.FakeTicker;
import org.folio.sidecar.token.VerifiedToken;
import org.junit.jupiter.api.Test;

/** Legacy mode is upstream's cache, but its key does not let one client's grant serve another's token. */
class LegacyKeyTest {

  @Test
  void anotherClientsTokenExpiringInTheSameSecondDoesNotReuseTheModuleClientsGrant() {
    // Given Keycloak grants the module-access client and denies everyone else
    var asked = new ArrayList<String>();
    AuthorizationDecider keycloak = request -> {
      asked.add(request.token().clientId());
      return Future.succeededFuture("sidecar-module-access-client".equals(request.token().clientId())
        ? Decision.PERMIT
        : Decision.DENY);
    };
    var cache = new LegacyDecisionCache(keycloak, TestCacheConfig.defaults(250), new SimpleMeterRegistry(),
      new FakeTicker(), Clock.fixed(Instant.ofEpochSecond(1_999_999_000L), ZoneOffset.UTC));
    long exp = 2_000_000_000L;
    var service = new VerifiedToken("a", "alpha", "sidecar-module-access-client", "sa-1", null, null, exp, 0);
    var other = new VerifiedToken("b", "alpha", "some-other-client", "sa-2", null, null, exp, 0);

    // When both ask for the same permission with tokens that expire in the same second
    var first = decide(cache, service);
    var second = decide(cache, other);

    // Then the other client is asked about, and denied
    assertThat(first).isEqualTo(Decision.PERMIT);
    assertThat(second).isEqualTo(Decision.DENY);
    assertThat(asked).isEqualTo(List.of("sidecar-module-access-client", "some-other-client"));
  }

  private static Decision decide(LegacyDecisionCache cache, VerifiedToken token) {
    return cache.decide(new AuthorizationRequest("alpha", "/items#GET", token)).toCompletionStage()
      .toCompletableFuture().join();
  }
}
