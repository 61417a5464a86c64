package org.folio.sidecar.token;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.folio.sidecar.config.KeycloakConfig;
import org.folio.sidecar.testkit.ConfigMappings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * KC_MAX_CONCURRENT_CALLS and KC_MAX_QUEUED_CALLS, as a fleet restarted with empty caches meets them: Keycloak is
 * "slow" because the test holds its answers, and the deadline runs out when the test fires it, never by waiting.
 */
class KeycloakCallLimitTest {

  private final Vertx vertx = Vertx.vertx();
  private final WebClient client = WebClient.create(vertx);
  /** Keycloak's answers not yet given, in the order the calls reached it. */
  private final List<Promise<HttpResponse<Buffer>>> atKeycloak = new ArrayList<>();
  private final AtomicInteger mostAtOnce = new AtomicInteger();
  private final List<Runnable> deadlines = new ArrayList<>();
  /** Whose call each of {@link #atKeycloak} is, as tenant/user. */
  private final List<String> sentFor = new ArrayList<>();

  @AfterEach
  void close() {
    client.close();
    vertx.close();
  }

  private KeycloakCalls calls(int maxConcurrent, int maxQueued) {
    var config = ConfigMappings.load(KeycloakConfig.class, Map.of("kc.max-concurrent-calls",
      String.valueOf(maxConcurrent), "kc.max-queued-calls", String.valueOf(maxQueued)));
    return new KeycloakCalls((delay, task) -> {
      deadlines.add(task);
      return () -> deadlines.remove(task);
    }, config);
  }

  private Future<HttpResponse<Buffer>> call(KeycloakCalls calls) {
    return call(calls, "diku", "user");
  }

  private Future<HttpResponse<Buffer>> call(KeycloakCalls calls, String tenant, String user) {
    HttpRequest<Buffer> request = client.getAbs("http://127.0.0.1:1/realms/diku/protocol/openid-connect/certs");
    return calls.send(tenant, user, request, ignored -> {
      var answer = Promise.<HttpResponse<Buffer>>promise();
      atKeycloak.add(answer);
      sentFor.add(tenant + "/" + user);
      mostAtOnce.accumulateAndGet((int) atKeycloak.stream().filter(p -> !p.future().isComplete()).count(),
        Math::max);
      return answer.future();
    });
  }

  private void keycloakAnswersOldest() {
    atKeycloak.stream().filter(p -> !p.future().isComplete()).findFirst().orElseThrow()
      .fail(new IllegalStateException("answered"));
  }

  @Test
  void noMoreThanTheLimitReachKeycloakAtOnceAndTheWaitingOnesAllComplete() {
    var calls = calls(3, 100);
    var results = new ArrayList<Future<HttpResponse<Buffer>>>();
    for (int i = 0; i < 20; i++) {
      results.add(call(calls));
    }
    assertThat(atKeycloak).hasSize(3);

    for (int answered = 0; answered < 20; answered++) {
      keycloakAnswersOldest();
    }

    assertThat(mostAtOnce).hasValue(3);
    assertThat(atKeycloak).hasSize(20);
    assertThat(results).allSatisfy(result -> assertThat(result.isComplete()).isTrue());
  }

  @Test
  void aCallWhoseDeadlineRanOutWhileWaitingIsNeverSent() {
    var calls = calls(1, 100);
    var first = call(calls);
    var waiting = call(calls);
    assertThat(atKeycloak).hasSize(1);

    // the waiting call's deadline (the second scheduled) runs out: its caller is told at once that the sidecar was
    // busy, never that Keycloak timed out: Keycloak was not asked
    deadlines.get(1).run();
    assertThat(waiting.failed()).isTrue();
    assertThat(KeycloakCalls.classify(waiting.cause())).isEqualTo(KeycloakCalls.Failure.BUSY);
    assertThat(KeycloakCalls.isBusy(waiting.cause())).isTrue();

    keycloakAnswersOldest();
    assertThat(first.isComplete()).isTrue();
    assertThat(atKeycloak).hasSize(1);
    // its slot is free for the next caller
    call(calls);
    assertThat(atKeycloak).hasSize(2);
  }

  @Test
  void pastTheQueueBoundACallFailsAtOnceNamingTheLimits() {
    var calls = calls(2, 3);
    for (int i = 0; i < 5; i++) {
      call(calls);
    }

    var refused = call(calls);

    assertThat(refused.failed()).isTrue();
    assertThat(KeycloakCalls.classify(refused.cause())).isEqualTo(KeycloakCalls.Failure.BUSY);
    assertThat(calls.describe(refused.cause())).contains("KC_MAX_CONCURRENT_CALLS").contains("KC_MAX_QUEUED_CALLS")
      .contains("2 Keycloak calls in flight and 3 waiting");
    assertThat(atKeycloak).hasSize(2);
  }

  @Test
  void aSentCallWhoseDeadlineRunsOutIsATimeoutNotBusy() {
    var calls = calls(1, 100);
    var sent = call(calls);

    deadlines.get(0).run();

    assertThat(KeycloakCalls.classify(sent.cause())).isEqualTo(KeycloakCalls.Failure.TIMEOUT);
    assertThat(KeycloakCalls.isBusy(sent.cause())).isFalse();
  }

  @Test
  void anotherTenantsSingleCallIsServedBeforeAFloodsBacklog() {
    var calls = calls(2, 1000);
    var flood = new ArrayList<Future<HttpResponse<Buffer>>>();
    for (int i = 0; i < 500; i++) {
      flood.add(call(calls, "flood", "user-" + (i % 120)));
    }
    assertThat(atKeycloak).hasSize(2);

    var other = call(calls, "other", "librarian");
    keycloakAnswersOldest();
    keycloakAnswersOldest();

    // the tenants take turns: of the first two slots freed, one goes to the other tenant, though 498 of the
    // flood's calls came before it
    assertThat(sentFor).hasSize(4);
    assertThat(sentFor.subList(2, 4)).contains("other/librarian");
    assertThat(other.isComplete()).isFalse();
    assertThat(flood.stream().filter(Future::isComplete)).hasSize(2);
  }

  @Test
  void withinATenantUsersTakeTurns() {
    var calls = calls(1, 1000);
    call(calls, "alpha", "busy");
    for (int i = 0; i < 50; i++) {
      call(calls, "alpha", "busy");
    }
    call(calls, "alpha", "quiet");

    keycloakAnswersOldest();
    keycloakAnswersOldest();

    // the busy user's first waiting call, then the quiet user's one, not the busy user's 49 others first
    assertThat(sentFor).containsExactly("alpha/busy", "alpha/busy", "alpha/quiet");
  }

  @Test
  void aFullQueueTakesItsRoomFromTheLongestTenantNotFromANewcomer() {
    var calls = calls(1, 10);
    call(calls, "flood", "u");
    var flood = new ArrayList<Future<HttpResponse<Buffer>>>();
    for (int i = 0; i < 10; i++) {
      flood.add(call(calls, "flood", "u"));
    }
    var floodRefused = call(calls, "flood", "u");
    assertThat(KeycloakCalls.classify(floodRefused.cause())).isEqualTo(KeycloakCalls.Failure.BUSY);

    var other = call(calls, "other", "u");

    // the newest of the flood's waiting calls made room and was told busy; the newcomer waits its turn
    assertThat(other.isComplete()).isFalse();
    assertThat(flood.get(9).failed()).isTrue();
    assertThat(KeycloakCalls.isBusy(flood.get(9).cause())).isTrue();
    assertThat(flood.subList(0, 9)).noneMatch(Future::isComplete);
    keycloakAnswersOldest();
    keycloakAnswersOldest();
    assertThat(sentFor.subList(1, 3)).contains("other/u");
  }
}
