package org.folio.sidecar.testkit;

import java.util.List;

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
    step("starting Keycloak (20-60 s on first start, longer on a busy machine), Kafka and the stub module, "
      + "then provisioning realms alpha and beta...");
    var platform = TestPlatform.get();
    step("starting the sidecar and waiting until it is ready...");
    var sidecar = SidecarProcess.start(platform);
    var base = sidecar.baseUrl();
    sidecar.awaitReady(waiting -> step("still waiting: " + waiting));
    step("logging in the allowed and the denied user...");

    var alpha = platform.alpha();
    var allowed = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
    var denied = platform.tokens().login(alpha, alpha.denied()).getString("access_token");
    System.out.println();
    System.out.println("Sidecar for " + TestModule.NAME + " on " + base + "; Keycloak realms: alpha, beta.");
    System.out.println("Allowed (user " + alpha.allowed().username() + " holds GET /items/{id}):");
    System.out.println("  curl -i -H 'x-okapi-tenant: alpha' -H 'x-okapi-token: " + allowed + "' " + base + "/items/1");
    System.out.println("Denied (user " + alpha.denied().username() + " holds nothing):");
    System.out.println("  curl -i -H 'x-okapi-tenant: alpha' -H 'x-okapi-token: " + denied + "' " + base + "/items/1");
    step("checking both (the first decision asks a cold Keycloak: up to KC_REQUEST_TIMEOUT, 15 s)...");
    var checks = new Checks();
    int allowedStatus = checks.status(base + "/items/1", "alpha", allowed);
    int deniedStatus = checks.status(base + "/items/1", "alpha", denied);
    System.out.printf("%nChecked: allowed -> %d, denied -> %d (tokens live %d s)%n", allowedStatus, deniedStatus,
      TestPlatform.ACCESS_TOKEN_LIFESPAN_SECONDS);
    boolean passed = allowedStatus == 200 && deniedStatus == 403;
    if (!passed || exitAfterCheck) {
      // the sidecar goes first: shutdown hooks run at once, and a broker stopped under it makes its consumer
      // log an error (26 Kafka warnings after a failed check) while leaving its group
      sidecar.close();
      System.exit(passed ? 0 : 1);
    }
    System.out.println("Ctrl-C stops Keycloak, the module and the sidecar.");
    sidecar.waitFor();
  }

  private static void step(String what) {
    System.out.println("[demo] " + what);
  }
}
