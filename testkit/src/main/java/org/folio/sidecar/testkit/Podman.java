package org.folio.sidecar.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The podman client as the ops/ scripts' pods use it (PodSmoke, ChartSmoke): runc and cgroupfs, as these
 * machines need, each call bounded; and the kernel's view of a container's first process.
 */
final class Podman {

  private static final String[] PODMAN = {"podman", "--runtime", "runc", "--cgroup-manager=cgroupfs"};

  private Podman() {
  }

  record Result(int exit, String output) {
  }

  static Result run(int seconds, String... args) throws IOException, InterruptedException {
    var command = new ArrayList<>(List.of(PODMAN));
    command.addAll(List.of(args));
    // to a file: a long log would fill a pipe nobody reads while waiting
    var output = Files.createTempFile("podman", ".out");
    try {
      var process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
      if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return new Result(-1, String.join(" ", args) + ": no answer in " + seconds + " s");
      }
      return new Result(process.exitValue(), Files.readString(output));
    } finally {
      Files.delete(output);
    }
  }

  /** The host's pid of the container's first process, or 0 when it is not running. */
  static long pid(String container) throws IOException, InterruptedException {
    var state = run(10, "inspect", "--format", "{{.State.Pid}}", container).output.trim();
    return state.matches("\\d+") ? Long.parseLong(state) : 0;
  }

  /** /proc/{pid}/status of a process. */
  static List<String> status(long pid) throws IOException {
    return Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"));
  }

  /** One field of /proc/{pid}/status, without its name. */
  static String field(List<String> status, String name) {
    return status.stream().filter(line -> line.startsWith(name + ":")).map(line -> line.substring(name.length() + 1)
      .trim()).findFirst().orElse("");
  }
}
