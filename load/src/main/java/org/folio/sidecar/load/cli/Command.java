package org.folio.sidecar.load.cli;

import java.util.List;

/** A harness's command line: its exit status is the process's, 2 when it fails with an exception. */
@FunctionalInterface
public interface Command {

  int run(List<String> args) throws Exception;

  static void exit(String[] args, Command command) {
    int exit;
    try {
      exit = command.run(List.of(args));
    } catch (Exception e) {
      e.printStackTrace();
      exit = 2;
    }
    // Keycloak, Vert.x and the token service would keep the JVM alive
    System.exit(exit);
  }
}
