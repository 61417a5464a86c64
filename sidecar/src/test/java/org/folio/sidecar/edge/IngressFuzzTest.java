package org.folio.sidecar.edge;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.folio.sidecar.support.LogCapture;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.folio.sidecar.testkit.Tokens;
import org.junit.jupiter.api.Test;

/**
 * Issue 27 item 5: generated requests against the ingress pipeline with the real Keycloak realms' keys. The
 * model: only the alpha realm's "allowed" user's untouched token, sent once, with the single tenant header
 * {@code alpha}, on a method other than the withheld DELETE, may be answered 2xx; everything else (tampered
 * tokens byte by byte, another realm's token or key, {@code alg} games, replaced payloads, no token, duplicated
 * token or tenant headers, another tenant) must not be. No case may be answered 5xx, and no log line may carry
 * token text. Paths carry encodings, dot segments and parameters; the model does not need their routing
 * (anything but the allowed token is denied wherever it lands).
 *
 * <p>HTTP/2 is switched on (SIDECAR_HTTP2_ENABLED) and each case goes over HTTP/1.1 or HTTP/2 (h2c), drawn after
 * the case itself so a seed's cases stay what they were; the same model holds for both (issue 34).
 *
 * <p>{@code ./mvnw verify} runs {@value #DEFAULT_CASES} cases with a new seed each time. The seed is printed;
 * {@code -Dfuzz.seed=S -Dfuzz.cases=N} repeats a run, {@code -Dfuzz.case=I} replays case I alone.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true, initArgs = {
  @ResourceArg(name = "edge.http2-enabled", value = "true"),
  // the h2 test classes share one application; a long answer timeout shows that nothing is freed by timing out
  @ResourceArg(name = "sidecar.request-timeout", value = "600000")})
class IngressFuzzTest {

  private static final int DEFAULT_CASES = 3000;
  private static final String[] METHODS = {"GET", "GET", "GET", "POST", "PUT", "DELETE"};
  private static final String[] PATHS = {"/items", "/items/1", "/items/1/loans", "/uploads", "/downloads/a",
    "/items/1/check"};
  private static final String[] PATH_GAMES = {"", "/", "/..", "/%2e%2e", "/%2E%2E/uploads", "/..%2f..%2fuploads",
    "/.", "/./1", ";jsessionid=1", "%00", "%252e%252e", "%2f", "%5c..%5c", "//", "?q=%2e%2e/..", "/%C0%AE%C0%AE",
    "#frag"};
  private static final String[] TENANTS = {"beta", "ALPHA", "alpha,beta", "alpha%00", "Alpha", "diku"};

  private record Case(String method, String path, List<String[]> headers, boolean mayAllow, String description) {
  }

  @Test
  void generatedRequestsAllowOnlyWhatTheModelAllowsAndNeverFail() throws Exception {
    var platform = TestPlatform.get();
    platform.resetModule();
    var alpha = platform.alpha();
    var beta = platform.beta();
    var allowed = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
    var denied = platform.tokens().login(alpha, alpha.denied()).getString("access_token");
    var other = platform.tokens().login(beta, beta.allowed()).getString("access_token");
    var claims = Tokens.claims(allowed);
    var forged = List.of(
      Tokens.sign(claims, beta.signingKey().getPrivate(), beta.keyId(), "RS256"),
      Tokens.sign(claims, beta.signingKey().getPrivate(), alpha.keyId(), "RS256"),
      Tokens.sign(claims, alpha.signingKey().getPrivate(), alpha.keyId(), "PS256"),
      Tokens.withPayload(allowed, claims.copy().put("user_id", alpha.denied().folioId())),
      Tokens.withPayload(allowed, claims.copy().put("iss", claims.getString("iss").replace("alpha", "beta"))),
      unsigned(claims, "none"), unsigned(claims, "HS256"), allowed + ".", allowed.substring(0, allowed.length() - 1));
    var secrets = new ArrayList<String>();
    for (var token : List.of(allowed, denied, other)) {
      secrets.add(token.split("\\.")[2]);
    }

    var client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    var h2Client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
    warmUp(client, allowed, denied, other);

    long seed = Long.getLong("fuzz.seed", System.nanoTime());
    int cases = Integer.getInteger("fuzz.cases", DEFAULT_CASES);
    int only = Integer.getInteger("fuzz.case", -1);
    System.out.printf("Ingress fuzz: seed %d, %d cases (repeat: -Dfuzz.seed=%d -Dfuzz.cases=%d; one case:"
      + " -Dfuzz.case=<i>)%n", seed, cases, seed, cases);
    int allowedAnswers = 0;
    int deniedAnswers = 0;
    int overHttp2 = 0;
    try (var capture = LogCapture.install()) {
      for (int i = 0; i < cases; i++) {
        if (only >= 0 && i != only) {
          continue;
        }
        var random = new Random(seed * 1_000_003 + i);
        var generated = generate(random, allowed, denied, other, forged);
        boolean http2 = random.nextBoolean();
        var answer = send(http2 ? h2Client : client, generated);
        int status = answer.statusCode();
        var what = "case " + i + " of seed " + seed + " over " + answer.version() + ": " + generated.description()
          + " -> " + status;
        if (answer.version() == HttpClient.Version.HTTP_2) {
          overHttp2++;
        }
        assertThat(status).as(what).isBetween(200, 499);
        if (!generated.mayAllow()) {
          assertThat(status).as(what).isGreaterThanOrEqualTo(300);
        }
        if (status < 300) {
          allowedAnswers++;
        } else {
          deniedAnswers++;
        }
      }
      for (var line : capture.lines()) {
        for (var secret : secrets) {
          assertThat(line).doesNotContain(secret);
        }
      }
    }
    System.out.printf("Ingress fuzz: seed %d, %d cases (%d over HTTP/2): %d answered 2xx, %d refused, 0 5xx,"
      + " 0 wrong allows%n", seed, cases, overHttp2, allowedAnswers, deniedAnswers);
    if (only < 0) {
      // the JDK's client upgrades from HTTP/1.1 on a connection's first request: the rest of its half is h2
      assertThat(overHttp2).as("cases that went over HTTP/2").isPositive();
    }
  }

  /**
   * Each user's first decision per endpoint is a UMA call to Keycloak, which on a busy machine can take longer
   * than KC_REQUEST_TIMEOUT and is then, by design, a 503: the fuzz run starts with every decision cached, so a
   * 5xx in it is the sidecar's.
   */
  private static void warmUp(HttpClient client, String allowed, String denied, String other) throws Exception {
    // beta's own user in beta is the one other caller the model lets through: its decisions are warmed too
    String[][] callers = {{"alpha", allowed}, {"alpha", denied}, {"beta", other}};
    for (var method : new String[]{"GET", "POST", "PUT", "DELETE"}) {
      for (var path : PATHS) {
        for (var caller : callers) {
          var headers = new ArrayList<String[]>();
          headers.add(new String[]{"x-okapi-tenant", caller[0]});
          headers.add(new String[]{"x-okapi-token", caller[1]});
          for (int attempt = 0; attempt < 5
            && send(client, new Case(method, path, headers, false, "")).statusCode() >= 500; attempt++) {
            // Keycloak was slow: the next attempt finds it warm
          }
        }
      }
    }
  }

  private static Case generate(Random random, String allowed, String denied, String other, List<String> forged) {
    var method = METHODS[random.nextInt(METHODS.length)];
    var path = PATHS[random.nextInt(PATHS.length)];
    if (random.nextInt(3) == 0) {
      path += PATH_GAMES[random.nextInt(PATH_GAMES.length)];
    }
    var headers = new ArrayList<String[]>();
    var description = new StringBuilder(method).append(' ').append(path);
    boolean mayAllow = !"DELETE".equals(method);
    String token;
    int kind = random.nextInt(10);
    switch (kind) {
      case 0, 1, 2 -> {
        token = allowed;
        description.append(" allowed-token");
      }
      case 3 -> {
        token = denied;
        mayAllow = false;
        description.append(" denied-user-token");
      }
      case 4 -> {
        token = other;
        mayAllow = false;
        description.append(" other-realm-token");
      }
      case 5, 6 -> {
        token = tamper(random, allowed);
        mayAllow = false;
        description.append(" tampered-token");
      }
      case 7, 8 -> {
        int which = random.nextInt(forged.size());
        token = forged.get(which);
        mayAllow = false;
        description.append(" forged-token-").append(which);
      }
      default -> {
        token = null;
        mayAllow = false;
        description.append(" no-token");
      }
    }
    if (token != null) {
      switch (random.nextInt(4)) {
        case 0 -> headers.add(new String[]{"Authorization", "Bearer " + token});
        case 1 -> headers.add(new String[]{"X-OKAPI-TOKEN", token});
        case 2 -> {
          headers.add(new String[]{"x-okapi-token", token});
          headers.add(new String[]{"x-okapi-token", denied});
          mayAllow = false;
          description.append(" twice");
        }
        default -> headers.add(new String[]{"x-okapi-token", token});
      }
    }
    switch (random.nextInt(8)) {
      case 0 -> {
        var tenant = TENANTS[random.nextInt(TENANTS.length)];
        headers.add(new String[]{"x-okapi-tenant", tenant});
        // beta's own user in beta is an ordinary caller of its own tenant
        mayAllow = "beta".equals(tenant) && other.equals(token) && !"DELETE".equals(method);
        description.append(" tenant '").append(tenant).append('\'');
      }
      case 1 -> {
        headers.add(new String[]{"x-okapi-tenant", "alpha"});
        headers.add(new String[]{"x-okapi-tenant", "beta"});
        mayAllow = false;
        description.append(" two tenants");
      }
      case 2 -> {
        // mayAllow is unchanged: the sidecar must not trust a caller's claims about the user or its permissions
        headers.add(new String[]{"x-okapi-tenant", "alpha"});
        headers.add(new String[]{"x-okapi-user-id", "00000000-0000-0000-0000-000000000000"});
        headers.add(new String[]{"x-okapi-permissions", "[\"items.item.delete\"]"});
        description.append(" spoofed user and permissions");
      }
      default -> headers.add(new String[]{"x-okapi-tenant", "alpha"});
    }
    return new Case(method, path, headers, mayAllow, description.toString());
  }

  /** One character of the token replaced, never the last of a part (its spare bits may not change the bytes). */
  private static String tamper(Random random, String token) {
    var chars = token.toCharArray();
    int at;
    do {
      at = random.nextInt(chars.length - 1);
    } while (chars[at] == '.' || chars[at + 1] == '.');
    var alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    char replacement;
    do {
      replacement = alphabet.charAt(random.nextInt(alphabet.length()));
    } while (replacement == chars[at]);
    chars[at] = replacement;
    return new String(chars);
  }

  private static String unsigned(JsonObject claims, String algorithm) {
    var encoder = Base64.getUrlEncoder().withoutPadding();
    var header = new JsonObject().put("alg", algorithm).put("typ", "JWT").encode();
    return encoder.encodeToString(header.getBytes(StandardCharsets.UTF_8)) + "."
      + encoder.encodeToString(claims.encode().getBytes(StandardCharsets.UTF_8)) + ".";
  }

  private static HttpResponse<Void> send(HttpClient client, Case generated) throws IOException,
    InterruptedException {
    var builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + RestAssured.port + generated.path()))
      .timeout(Duration.ofSeconds(30));
    for (var header : generated.headers()) {
      builder.header(header[0], header[1]);
    }
    var body = "POST".equals(generated.method()) || "PUT".equals(generated.method())
      ? HttpRequest.BodyPublishers.ofString("{\"id\":1}")
      : HttpRequest.BodyPublishers.noBody();
    return client.send(builder.method(generated.method(), body).build(), HttpResponse.BodyHandlers.discarding());
  }
}
