package org.folio.sidecar.testkit;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The README's demo: a real Keycloak with two FOLIO-style tenants, a stub module, and the packaged sidecar
 * configured only through upstream's environment variables. Prints a curl that is allowed and one that is
 * denied, runs both, and keeps serving until interrupted ({@code --exit} stops after the check).
 */
public final class Demo {

  private Demo() {
  }

  public static void main(String[] args) {
    try {
      run(args);
    } catch (Exception e) {
      e.printStackTrace();
      // WireMock and Vert.x threads would keep a failed demo alive
      System.exit(1);
    }
  }

  private static void run(String[] args) throws Exception {
    boolean exitAfterCheck = List.of(args).contains("--exit");
    System.out.println("Starting Keycloak (20-60 s on first start) and the stub module...");
    var platform = TestPlatform.get();
    var config = platform.sidecarConfig();
    int port = FreePorts.next();
    // DEMO_SIDECAR_COMMAND runs the sidecar another way (image/smoke.sh: from its container image); it gets the
    // same environment
    var command = Optional.ofNullable(System.getenv("DEMO_SIDECAR_COMMAND")).filter(c -> !c.isBlank())
      .map(c -> List.of(c.trim().split("\\s+")))
      .orElse(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
        "sidecar/target/quarkus-app/quarkus-run.jar"));
    var builder = new ProcessBuilder(command).inheritIO();
    var env = builder.environment();
    env.put("QUARKUS_HTTP_PORT", String.valueOf(port));
    env.put("QUARKUS_MANAGEMENT_PORT", String.valueOf(FreePorts.next()));
    env.put("KC_URL", config.get("kc.url"));
    env.put("MODULE_URL", config.get("module.url"));
    env.put("MODULE_NAME", TestModule.NAME);
    env.put("MODULE_VERSION", TestModule.VERSION);
    env.put("MODULE_DESCRIPTOR_PATH", config.get("module.descriptor-path"));
    env.put("SIDECAR_URL", "http://127.0.0.1:" + port);
    env.put("TE_CLIENT_URL", config.get("tenant.entitlements-url"));
    env.put("TM_CLIENT_URL", config.get("tenant.tenants-url"));
    env.put("KAFKA_HOST", config.get("events.kafka-host"));
    env.put("KAFKA_PORT", config.get("events.kafka-port"));
    env.put("SECRET_STORE_TYPE", "EPHEMERAL");
    env.put("SECRET_STORE_EPHEMERAL_CONTENT_FOLIO_MASTER_FOLIO_BACKEND_ADMIN_CLIENT",
      config.get("secret-store.ephemeral.content.folio_master_folio-backend-admin-client"));
    env.put("SECRET_STORE_EPHEMERAL_CONTENT_FOLIO_ALPHA_SIDECAR_MODULE_ACCESS_CLIENT", TestTenant.SERVICE_SECRET);
    env.put("SECRET_STORE_EPHEMERAL_CONTENT_FOLIO_BETA_SIDECAR_MODULE_ACCESS_CLIENT", TestTenant.SERVICE_SECRET);
    var sidecar = builder.start();
    Runtime.getRuntime().addShutdownHook(new Thread(sidecar::destroy));
    var base = "http://127.0.0.1:" + port;
    awaitLive(base);

    var alpha = platform.alpha();
    var allowed = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
    var denied = platform.tokens().login(alpha, alpha.denied()).getString("access_token");
    System.out.println();
    System.out.println("Sidecar for " + TestModule.NAME + " on " + base + "; Keycloak realms: alpha, beta.");
    System.out.println("Allowed (user " + alpha.allowed().username() + " holds GET /items/{id}):");
    System.out.println("  curl -i -H 'x-okapi-tenant: alpha' -H 'x-okapi-token: " + allowed + "' " + base + "/items/1");
    System.out.println("Denied (user " + alpha.denied().username() + " holds nothing):");
    System.out.println("  curl -i -H 'x-okapi-tenant: alpha' -H 'x-okapi-token: " + denied + "' " + base + "/items/1");
    int allowedStatus = call(base + "/items/1", allowed);
    int deniedStatus = call(base + "/items/1", denied);
    System.out.printf("%nChecked: allowed -> %d, denied -> %d (tokens live %d s)%n", allowedStatus, deniedStatus,
      TestPlatform.ACCESS_TOKEN_LIFESPAN_SECONDS);
    if (allowedStatus != 200 || deniedStatus != 403) {
      System.exit(1);
    }
    if (exitAfterCheck) {
      // the sidecar goes first: shutdown hooks run at once, and a broker stopped under it makes its consumer
      // log an error while leaving its group
      sidecar.destroy();
      sidecar.waitFor(15, TimeUnit.SECONDS);
      System.exit(0);
    }
    System.out.println("Ctrl-C stops Keycloak, the module and the sidecar.");
    sidecar.waitFor();
  }

  private static void awaitLive(String base) throws InterruptedException {
    var http = HttpClient.newHttpClient();
    for (int i = 0; i < 120; i++) {
      try {
        var request = HttpRequest.newBuilder(URI.create(base + "/admin/health/live")).build();
        if (http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not up yet
      }
      Thread.sleep(500);
    }
    throw new IllegalStateException("sidecar did not start");
  }

  private static int call(String url, String token) throws Exception {
    var request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
      .header("x-okapi-tenant", "alpha").header("x-okapi-token", token).build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
  }
}
