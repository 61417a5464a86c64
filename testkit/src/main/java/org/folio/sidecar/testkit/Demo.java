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
    System.out.println("Starting Keycloak (20-60 s on first start) and the stub module...");
    var platform = TestPlatform.get();
    var sidecar = SidecarProcess.start(platform);
    var base = sidecar.baseUrl();
    sidecar.awaitLive();

    var alpha = platform.alpha();
    var allowed = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
    var denied = platform.tokens().login(alpha, alpha.denied()).getString("access_token");
    System.out.println();
    System.out.println("Sidecar for " + TestModule.NAME + " on " + base + "; Keycloak realms: alpha, beta.");
    System.out.println("Allowed (user " + alpha.allowed().username() + " holds GET /items/{id}):");
    System.out.println("  curl -i -H 'x-okapi-tenant: alpha' -H 'x-okapi-token: " + allowed + "' " + base + "/items/1");
    System.out.println("Denied (user " + alpha.denied().username() + " holds nothing):");
    System.out.println("  curl -i -H 'x-okapi-tenant: alpha' -H 'x-okapi-token: " + denied + "' " + base + "/items/1");
    var checks = new Checks();
    int allowedStatus = checks.status(base + "/items/1", "alpha", allowed);
    int deniedStatus = checks.status(base + "/items/1", "alpha", denied);
    System.out.printf("%nChecked: allowed -> %d, denied -> %d (tokens live %d s)%n", allowedStatus, deniedStatus,
      TestPlatform.ACCESS_TOKEN_LIFESPAN_SECONDS);
    if (allowedStatus != 200 || deniedStatus != 403) {
      System.exit(1);
    }
    if (exitAfterCheck) {
      // the sidecar goes first: shutdown hooks run at once, and a broker stopped under it makes its consumer
      // log an error while leaving its group
      sidecar.close();
      System.exit(0);
    }
    System.out.println("Ctrl-C stops Keycloak, the module and the sidecar.");
    sidecar.waitFor();
  }
}
