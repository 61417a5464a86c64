package org.folio.sidecar.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.tenant.TenantEntitlements;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.Test;

/**
 * Issue 43 item 6 (row 5): with SIDECAR_TENANT_ENTITLEMENT_CHECK=false, on a sidecar that has loaded no realm's
 * keys yet, tokens naming made-up realms from the one address every caller shares spend the new-realm budgets
 * (small here), and alpha's and beta's first tokens come in the middle of it: none is refused, since entitled
 * tenants are realms that exist, loaded as a hint though nothing is refused for want of an entitlement.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, initArgs = {
  @ResourceArg(name = "tenant.entitlement-check", value = "false"),
  @ResourceArg(name = "kc.jwks-new-realm-fetches", value = "20"),
  @ResourceArg(name = "kc.jwks-new-realm-fetches-per-source", value = "5"),
  @ResourceArg(name = "kc.request-timeout", value = "20s")})
class RealmFloodCheckOffTest {

  private static final int FLOOD = 600;
  private static final int CONNECTIONS = 16;

  @Inject
  TenantEntitlements entitlements;

  @Test
  void madeUpRealmsFromOneAddressNeverRefuseAGenuineRealmWithTheCheckOff() throws Exception {
    var platform = TestPlatform.get();
    platform.resetModule();
    await().atMost(Duration.ofSeconds(60))
      .until(() -> entitlements.entitled("alpha") && entitlements.entitled("beta"));
    var client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    var connections = new Semaphore(CONNECTIONS);
    var floodAnswers = new ArrayList<CompletableFuture<Integer>>();
    var genuine = new ArrayList<Integer>();
    for (int i = 0; i < FLOOD; i++) {
      connections.acquire();
      floodAnswers.add(RealmFloodTest.send(client, "alpha", RealmFloodTest.madeUpRealmToken(100_000 + i))
        .whenComplete((status, error) -> connections.release()));
      // the budgets are spent after the first few dozen: the genuine tokens come after that, first alpha's
      // keys never loaded, then beta's
      if (i == FLOOD / 3 || i == FLOOD / 2) {
        var tenant = i == FLOOD / 3 ? platform.alpha() : platform.beta();
        genuine.add(RealmFloodTest.send(client, tenant.name(), RealmFloodTest.genuineToken(tenant))
          .get(30, TimeUnit.SECONDS));
      }
    }
    for (var answer : floodAnswers) {
      assertThat(answer.get(60, TimeUnit.SECONDS)).isEqualTo(401);
    }
    System.out.printf("Realm flood, check off, one address: %d made-up realms, genuine first tokens %s%n", FLOOD,
      genuine);
    assertThat(genuine).containsOnly(200).hasSize(2);
  }
}
