package org.folio.sidecar.secret;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static io.restassured.RestAssured.given;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.folio.sidecar.testkit.FolioRealms;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.folio.sidecar.testkit.TestTenant;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

/**
 * The sidecar with SECRET_STORE_TYPE=VAULT, against WireMock speaking Vault's KV v2 API and the real Keycloak:
 * client secrets come from Vault; when Vault goes down, tenants whose service token is cached keep working,
 * and a tenant that needs a new secret gets a 503.
 */
@QuarkusTest
@WithTestResource(value = VaultSecretsTest.Vault.class, parallel = true)
@WithTestResource(value = SidecarTestResource.class, parallel = true, initArgs = {
  @ResourceArg(name = "secret-store.type", value = "VAULT"),
  @ResourceArg(name = "secret-store.vault.address", value = "${testplatform.managers}"),
  @ResourceArg(name = "secret-store.vault.token", value = VaultSecretsTest.VAULT_TOKEN)})
class VaultSecretsTest {

  static final String VAULT_TOKEN = "hvs.test-vault-token";

  /** Vault's KV v2 answers for the master realm and the two test tenants, on the managers' WireMock. */
  public static class Vault implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
      var managers = TestPlatform.get().managers();
      managers.stubFor(get(urlEqualTo("/v1/secret/data/folio/master")).withHeader("X-Vault-Token", equalTo(VAULT_TOKEN))
        .willReturn(okJson(kv("folio-backend-admin-client", TestPlatform.ADMIN_CLIENT_SECRET))));
      for (var tenant : new String[]{"alpha", "beta"}) {
        managers.stubFor(get(urlEqualTo("/v1/secret/data/folio/" + tenant))
          .withHeader("X-Vault-Token", equalTo(VAULT_TOKEN))
          .willReturn(okJson(kv(FolioRealms.SERVICE_CLIENT, TestTenant.SERVICE_SECRET))));
      }
      return Map.of();
    }

    private static String kv(String name, String value) {
      return new JsonObject().put("data", new JsonObject().put("data", new JsonObject().put(name, value))
        .put("metadata", new JsonObject().put("version", 1))).encode();
    }

    @Override
    public void stop() {
      TestPlatform.get().managers().stubFor(get(urlPathMatching("/v1/secret/.*")).atPriority(1)
        .willReturn(aResponse().withStatus(404)));
    }
  }

  private final TestPlatform platform = TestPlatform.get();

  @Test
  void secretsComeFromVaultAndAnOutageOnlyStopsNewSecrets() {
    platform.resetModule();
    given().header("x-okapi-tenant", "alpha").get("/users/31").then().statusCode(200);

    // Vault goes down (answers 503 to everything)
    platform.managers().stubFor(get(urlPathMatching("/v1/secret/.*")).atPriority(1)
      .willReturn(aResponse().withStatus(503)));

    given().header("x-okapi-tenant", "alpha").get("/users/32").then().statusCode(200);
    given().header("x-okapi-tenant", "beta").get("/users/33").then().statusCode(503)
      .body("errors[0].code", Matchers.equalTo("service_error"))
      .body("errors[0].message", Matchers.equalTo("Secret store is unavailable"));
  }
}
