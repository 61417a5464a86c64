package org.folio.sidecar.load.cli;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A harness's command line: its exit status is the process's, 2 when it fails with an exception. However it ends,
 * by its own exit or by a signal (SIGTERM, SIGINT), the processes it started end with it: sidecars, stub modules,
 * Keycloak, Gatling, nginx. A fleet's try-with-resources closes them on the way out, but a signal runs no finally
 * block, and before this a stopped A/B left its six sidecars and its Gatling running.
 */
@FunctionalInterface
public interface Command {

  int run(List<String> args) throws Exception;

  static void exit(String[] args, Command command) {
    Runtime.getRuntime().addShutdownHook(new Thread(Command::stopDescendants, "stop-started-processes"));
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

  private static void stopDescendants() {
    var started = ProcessHandle.current().descendants().toList();
    started.forEach(ProcessHandle::destroy);
    for (var process : started) {
      try {
        process.onExit().get(10, TimeUnit.SECONDS);
      } catch (ExecutionException | TimeoutException e) {
        process.destroyForcibly();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
      }
    }
  }
}
