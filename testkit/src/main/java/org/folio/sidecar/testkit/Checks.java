package org.folio.sidecar.testkit;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What the ops/ scripts' programs (LiveScrape, PodSmoke) verify: each check passes or is kept with why, and the
 * closing line is "name: N passed, N failed" as CI reads it.
 */
final class Checks {

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final int TIMED_OUT = -1;
  private final List<String> failures = new ArrayList<>();
  private int passed;

  void verify(String what, boolean ok, String detail) {
    if (ok) {
      passed++;
      System.out.println("ok: " + what);
    } else {
      failures.add(what + (detail.isEmpty() ? "" : " (" + detail + ")"));
    }
  }

  /** Prints the failures and the closing line; the process's exit code. */
  int summary(String name) {
    failures.forEach(failure -> System.out.println("FAILED: " + failure));
    System.out.println(name + ": " + passed + " passed, " + failures.size() + " failed");
    return failures.isEmpty() ? 0 : 1;
  }

  /** The status of a GET as a caller sends it: the tenant and, when not null, the token. */
  int status(String url, String tenant, String token) throws IOException, InterruptedException {
    // above the sidecar's own bounds (KC_REQUEST_TIMEOUT for the keys, again for the decision): a check waits for
    // the sidecar's answer, however busy the machine, and never turns a slow answer into its own failure
    var request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMinutes(2))
      .header("x-okapi-tenant", tenant);
    if (token != null) {
      request.header("x-okapi-token", token);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  /**
   * The status of a request that should be allowed, asked again (up to 5 times, each printed) while it answers 503:
   * on a loaded machine a cold Keycloak's first decision can outlast the sidecar's timeout, which says Keycloak is
   * slow, not that the pod is wired wrong.
   */
  int allowedStatus(String url, String tenant, String token) throws IOException, InterruptedException {
    int status = statusOrTimeout(url, tenant, token);
    for (int retry = 0; retry < 5 && (status == 503 || status == TIMED_OUT); retry++) {
      System.out.println("allowed request " + (status == TIMED_OUT ? "not answered in 10 s" : "answered 503")
        + " (Keycloak slower than the sidecar's timeout, or this client's), trying again");
      Thread.sleep(2_000);
      status = statusOrTimeout(url, tenant, token);
    }
    return status;
  }

  private int statusOrTimeout(String url, String tenant, String token) throws IOException, InterruptedException {
    try {
      return status(url, tenant, token);
    } catch (HttpTimeoutException e) {
      return TIMED_OUT;
    }
  }

  /** The body of a GET, or null when it does not answer 200. */
  String body(String url) throws InterruptedException {
    try {
      var response = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
      return response.statusCode() == 200 ? response.body() : null;
    } catch (IOException e) {
      return null;
    }
  }
}
