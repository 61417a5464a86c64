package org.folio.sidecar.secret;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.folio.sidecar.error.SidecarError;
import org.junit.jupiter.api.Test;

/**
 * Issue 27 item 6: a failing secret store never costs a working secret, and a missing key is not asked for by
 * every request. Before: past SIDECAR_SECRET_CACHE_TTL the secret was dropped before its reload, so an outage
 * longer than the TTL failed every token renewal; a missing key went to the store on every call.
 */
class CachedSecretsTest {

  private static final Duration TTL = Duration.ofMinutes(15);
  private static final Duration FAILURE_TTL = Duration.ofSeconds(30);

  private final AtomicLong now = new AtomicLong();
  private final AtomicInteger calls = new AtomicInteger();
  private volatile Future<String> answer = Future.succeededFuture("secret-1");
  private final CachedSecrets secrets = new CachedSecrets(key -> {
    calls.incrementAndGet();
    return answer;
  }, TTL, FAILURE_TTL, now::get);

  @Test
  void theLastSecretKeepsWorkingWhileTheStoreIsDownPastTheTtl() {
    assertThat(read()).isEqualTo("secret-1");
    answer = Future.failedFuture(SidecarError.secretStoreUnavailable("connection refused"));

    advance(TTL);
    // an hour of outage, four times the TTL
    for (int retry = 0; retry < 120; retry++) {
      assertThat(read()).isEqualTo("secret-1");
      assertThat(read()).isEqualTo("secret-1");
      advance(FAILURE_TTL);
    }
    // one reload attempt per failure TTL, not one per request
    assertThat(calls.get()).isEqualTo(1 + 120);

    answer = Future.succeededFuture("secret-2");
    assertThat(read()).isEqualTo("secret-2");
  }

  @Test
  void aMissingKeyIsRememberedForTheFailureTtl() {
    answer = Future.failedFuture(SidecarError.secretNotFound("folio_alpha_client"));

    for (int i = 0; i < 10; i++) {
      assertThat(secrets.secret("folio_alpha_client").cause()).hasMessageContaining("Secret not found");
    }
    assertThat(calls.get()).isEqualTo(1);

    answer = Future.succeededFuture("created");
    advance(FAILURE_TTL);
    assertThat(read()).isEqualTo("created");
    assertThat(calls.get()).isEqualTo(2);
  }

  @Test
  void aStoreDownWithNothingKeptIsAskedAgainByTheNextCaller() {
    answer = Future.failedFuture(SidecarError.secretStoreUnavailable("connection refused"));
    assertThat(secrets.secret("folio_alpha_client").cause()).isInstanceOf(SidecarError.class);
    assertThat(secrets.secret("folio_alpha_client").cause()).isInstanceOf(SidecarError.class);
    assertThat(calls.get()).isEqualTo(2);
  }

  private String read() {
    return secrets.secret("folio_alpha_client").result();
  }

  private void advance(Duration duration) {
    now.addAndGet(duration.toNanos());
  }
}
