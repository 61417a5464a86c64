package org.folio.sidecar.benchmark;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import org.folio.sidecar.testkit.TestPlatform;

/**
 * Measures the UMA decision call the sidecar makes on a cache miss, against the real Keycloak of the test
 * platform: sequential, two realms alternating. Prints the first calls of the freshly started (cold) Keycloak one by
 * one, which KC_REQUEST_TIMEOUT's default is chosen from (docs/configuration.md), then p50/p95/p99 of warm calls.
 * Run with {@code load/uma-latency.sh}.
 */
public final class UmaLatency {

  private UmaLatency() {
  }

  public static void main(String[] args) throws Exception {
    int cold = 6;
    int warmup = 300;
    int measured = 1000;
    var platform = TestPlatform.get();
    var tenants = new String[]{"alpha", "beta"};
    var tokens = new String[]{
      platform.tokens().login(platform.alpha(), platform.alpha().allowed()).getString("access_token"),
      platform.tokens().login(platform.beta(), platform.beta().allowed()).getString("access_token")};
    var http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    var base = platform.keycloakAdmin().baseUrl();
    var nanos = new long[measured];
    for (int i = 0; i < warmup + measured; i++) {
      var tenant = tenants[i % 2];
      var form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Auma-ticket&audience=" + tenant
        + "-login-application&permission=%2Fitems%2F%7Bid%7D%23GET&response_mode=decision";
      var request = HttpRequest.newBuilder(URI.create(base + "/realms/" + tenant + "/protocol/openid-connect/token"))
        .header("authorization", "Bearer " + tokens[i % 2])
        .header("content-type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(form)).build();
      long started = System.nanoTime();
      int status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
      if (status != 200) {
        throw new IllegalStateException("UMA answered " + status);
      }
      if (i < cold) {
        System.out.printf("cold UMA decision %d (%s): %.1f ms%n", i + 1, tenant, (System.nanoTime() - started) / 1e6);
      }
      if (i >= warmup) {
        nanos[i - warmup] = System.nanoTime() - started;
      }
    }
    Arrays.sort(nanos);
    System.out.printf(
      "UMA decision (response_mode=decision), %d sequential warm calls: p50 %.2f ms, p95 %.2f ms, p99 %.2f ms%n",
      measured, nanos[measured / 2] / 1e6, nanos[measured * 95 / 100] / 1e6, nanos[measured * 99 / 100] / 1e6);
    System.exit(0);
  }
}
