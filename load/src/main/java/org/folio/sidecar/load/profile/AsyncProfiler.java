package org.folio.sidecar.load.profile;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Objects;

/** async-profiler attached to a running sidecar: the hit-path and the idle profiles' flame graphs. */
final class AsyncProfiler {

  private AsyncProfiler() {
  }

  /** Sends async-profiler, loaded into the JVM {@code pid} (once, then reused), one command. */
  static void agent(long pid, Path library, String command) throws Exception {
    var vm = VirtualMachine.attach(String.valueOf(pid));
    try {
      vm.loadAgentPath(library.toString(), command);
    } finally {
      vm.detach();
    }
  }

  /** async-profiler's native library from its Maven artifact on the class path, copied out to be loaded. */
  static Path extract(Path out) throws IOException {
    var target = out.resolve("logs/libasyncProfiler.so");
    try (InputStream in = Objects.requireNonNull(AsyncProfiler.class.getResourceAsStream(
      "/linux-x64/libasyncProfiler.so"), "async-profiler's linux-x64 library is not on the class path")) {
      Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
    }
    return target;
  }
}
