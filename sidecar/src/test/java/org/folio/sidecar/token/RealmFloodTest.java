package org.folio.sidecar.token;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.ConfigProvider;
import org.folio.sidecar.support.LogCapture;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.support.TestClocks;
import org.folio.sidecar.testkit.TestPlatform;
import org.folio.sidecar.testkit.TestTenant;
import org.junit.jupiter.api.Test;

/**
 * Issue 34 item 3: tokens naming made-up realms, sent by a flood of connections, cost a tenant's real users
 * nothing. The keys of alpha (an entitled tenant, its keys loaded once) have expired when the flood begins, so
 * every fresh alpha token needs them fetched again in the middle of it; the flood's realms are limited per source
 * and in all, alpha's refresh is not, and the refusals are logged as one line per interval with a count.
 * Real Keycloak, real tokens (verified on the module's public endpoint, which needs no authorization decision);
 * time is the tests' clock, moved past the refresh interval.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true, initArgs = {
  @ResourceArg(name = "kc.jwks-refresh-interval", value = "1m"),
  // a busy machine's Keycloak may take seconds for the flood's hundreds of key look-ups
  @ResourceArg(name = "kc.request-timeout", value = "20s")})
class RealmFloodTest {

  private static final int FLOOD = 3_000;
  private static final int CONNECTIONS = 48;
  private static final int GENUINE = 10;
  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  private final TestPlatform platform = TestPlatform.get();

  @Test
  void madeUpRealmsNeverRefuseAnEntitledTenantsFreshTokens() throws Exception {
    platform.resetModule();
    var client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    // alpha's keys are loaded once, then expire
    assertThat(send(client, genuineToken()).get(30, TimeUnit.SECONDS)).isEqualTo(200);
    TestClocks.advance(Duration.ofSeconds(61));

    var flooded = new AtomicInteger();
    var genuine = new ArrayList<Integer>();
    int nonAccessLines;
    try (var capture = LogCapture.install()) {
      var connections = new Semaphore(CONNECTIONS);
      var floodAnswers = new ArrayList<CompletableFuture<Integer>>();
      // the first fifth of the flood is in before the first genuine token: the budget for new realms is spent
      for (int i = 0; i < FLOOD; i++) {
        connections.acquire();
        floodAnswers.add(send(client, madeUpRealmToken(i)).whenComplete((status, error) -> {
          connections.release();
          flooded.incrementAndGet();
        }));
        if (i >= FLOOD / 5 && (i - FLOOD / 5) % ((FLOOD - FLOOD / 5) / GENUINE) == 0 && genuine.size() < GENUINE) {
          int status = send(client, genuineToken()).get(30, TimeUnit.SECONDS);
          genuine.add(status);
        }
      }
      for (var answer : floodAnswers) {
        assertThat(answer.get(60, TimeUnit.SECONDS)).isEqualTo(401);
      }
      // once the interval has passed, the next refusal writes the count of all the flood's others
      TestClocks.advance(Duration.ofSeconds(61));
      assertThat(send(client, madeUpRealmToken(FLOOD)).get(30, TimeUnit.SECONDS)).isEqualTo(401);
      nonAccessLines = (int) capture.lines().stream().filter(line -> !line.startsWith("transaction ")).count();
      var summaries = capture.lines().stream().filter(line -> line.startsWith(RealmKeys.class.getName() + " "))
        .toList();
      summaries.forEach(System.out::println);
      long counted = summaries.stream().mapToLong(RealmFloodTest::refusalsIn).sum();
      // every made-up realm's token counted once, none written as a line of its own
      assertThat(counted).isEqualTo(FLOOD + 1);
    }
    long refused = genuine.stream().filter(status -> status != 200).count();
    System.out.printf("Realm flood: %d tokens naming made-up realms over %d connections, %d fresh genuine alpha "
      + "tokens among them, %d refused (statuses %s); %d log lines written besides access lines%n", flooded.get(),
      CONNECTIONS, genuine.size(), refused, genuine, nonAccessLines);
    assertThat(genuine).hasSize(GENUINE).containsOnly(200);
    // one summary line per interval (and a handful of unrelated lines), never one per refused token
    assertThat(nonAccessLines).isLessThan(20);
  }

  private static long refusalsIn(String line) {
    var counts = Pattern.compile("(\\d+) of realms Keycloak does not know, (\\d+) beyond").matcher(line);
    return counts.find() ? Long.parseLong(counts.group(1)) + Long.parseLong(counts.group(2)) : 0;
  }

  private String genuineToken() {
    return genuineToken(platform.alpha());
  }

  static String genuineToken(TestTenant tenant) {
    return TestPlatform.get().tokens().login(tenant, tenant.allowed()).getString("access_token");
  }

  /** Unsigned (the signature is junk), but well formed, an access token, RS256, naming realm flood{i} of KC_URL. */
  static String madeUpRealmToken(int i) {
    var issuer = ConfigProvider.getConfig().getValue("kc.url", String.class) + "/realms/flood" + i;
    var header = new JsonObject().put("alg", "RS256").put("kid", "k" + i).put("typ", "JWT");
    var payload = new JsonObject().put("iss", issuer).put("typ", "Bearer").put("sub", "x")
      .put("exp", TestClocks.epochSecond() + 300);
    return encode(header) + "." + encode(payload) + "." + BASE64URL.encodeToString(new byte[64]);
  }

  private static String encode(JsonObject json) {
    return BASE64URL.encodeToString(json.encode().getBytes(StandardCharsets.UTF_8));
  }

  private static CompletableFuture<Integer> send(HttpClient client, String token) {
    return send(client, "alpha", token);
  }

  static CompletableFuture<Integer> send(HttpClient client, String tenant, String token) {
    var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + RestAssured.port + "/public/info"))
      .header("x-okapi-tenant", tenant).header("x-okapi-token", token).timeout(Duration.ofSeconds(60)).GET().build();
    return client.sendAsync(request, HttpResponse.BodyHandlers.discarding()).thenApply(HttpResponse::statusCode);
  }
}
