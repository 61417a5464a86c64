package org.folio.sidecar.token;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.folio.sidecar.testkit.FakeTicker;
import org.junit.jupiter.api.Test;

/**
 * When a shared token is renewed and dropped, on a fake clock: this sidecar's policy renews ahead and never
 * makes a caller wait; upstream v3.0.18's (the legacy baseline) renews nothing ahead and drops 25 s early.
 */
class SharedTokensTest {

  private static final long LIFESPAN_SECONDS = 600;

  private final FakeTicker ticker = new FakeTicker();
  private final AtomicInteger issued = new AtomicInteger();

  private SharedTokens tokens(SharedTokens.Policy policy) {
    return new SharedTokens(tenant -> Future.succeededFuture(new JsonObject()
      .put("access_token", "token-" + issued.incrementAndGet()).put("expires_in", LIFESPAN_SECONDS)),
      policy, new SimpleMeterRegistry(), "test.tokens", ticker);
  }

  @Test
  void thisSidecarsPolicyRenewsAheadWithoutMakingACallerWait() {
    var tokens = tokens(new SharedTokens.Policy(1000, 0.7, false));
    assertThat(tokens.token("diku").result()).isEqualTo("token-1");

    ticker.advance(Duration.ofSeconds(419));
    assertThat(tokens.token("diku").result()).isEqualTo("token-1");
    assertThat(issued).hasValue(1);

    // past 70 % of its life: still handed out, and renewed behind the caller
    ticker.advance(Duration.ofSeconds(2));
    assertThat(tokens.token("diku").result()).isEqualTo("token-1");
    assertThat(issued).hasValue(2);
    assertThat(tokens.token("diku").result()).isEqualTo("token-2");
  }

  @Test
  void upstreamsPolicyRenewsNothingAheadAndDropsTwentyFiveSecondsEarly() {
    var tokens = tokens(SharedTokens.Policy.upstreamV3(50));
    assertThat(tokens.token("diku").result()).isEqualTo("token-1");

    ticker.advance(Duration.ofSeconds(LIFESPAN_SECONDS - 26));
    assertThat(tokens.token("diku").result()).isEqualTo("token-1");
    assertThat(issued).hasValue(1);

    // expires_in − 25 s: gone, and the caller waits for the next one
    ticker.advance(Duration.ofSeconds(2));
    assertThat(tokens.token("diku").result()).isEqualTo("token-2");
    assertThat(issued).hasValue(2);
  }
}
