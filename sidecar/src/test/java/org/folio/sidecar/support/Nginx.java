package org.folio.sidecar.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.folio.sidecar.testkit.FreePorts;

/**
 * Debian's nginx as a reference edge: one foreground process on a free loopback port with a temporary
 * configuration that proxies everything to one upstream, as a site would put it in front of a module. Absent
 * where the binary is not installed ({@link #binary()} is empty then).
 */
public final class Nginx implements AutoCloseable {

  private static final List<String> PLACES = List.of("/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx");
  private static final long START_MILLIS = 20_000;

  private final Process process;
  private final Path directory;
  private final int port;

  private Nginx(Process process, Path directory, int port) {
    this.process = process;
    this.directory = directory;
    this.port = port;
  }

  public static Optional<Path> binary() {
    return PLACES.stream().map(Path::of).filter(Files::isExecutable).findFirst();
  }

  /** Starts nginx in front of {@code upstreamPort} and returns once it accepts connections. */
  public static Nginx proxyTo(Path binary, int upstreamPort) {
    try {
      var directory = Files.createTempDirectory("nginx-reference");
      int port = FreePorts.next();
      var config = directory.resolve("nginx.conf");
      Files.writeString(config, """
        daemon off;
        master_process off;
        worker_processes 1;
        pid %1$s/nginx.pid;
        error_log %1$s/error.log;
        events { worker_connections 64; }
        http {
          access_log off;
          client_body_temp_path %1$s/body;
          proxy_temp_path %1$s/proxy;
          fastcgi_temp_path %1$s/fastcgi;
          uwsgi_temp_path %1$s/uwsgi;
          scgi_temp_path %1$s/scgi;
          server {
            listen 127.0.0.1:%2$d;
            location / {
              proxy_pass http://127.0.0.1:%3$d;
              proxy_http_version 1.1;
              proxy_set_header Connection "";
            }
          }
        }
        """.formatted(directory, port, upstreamPort));
      var process = new ProcessBuilder(binary.toString(), "-p", directory.toString(), "-c", config.toString(), "-e",
        directory.resolve("error.log").toString())
        .redirectErrorStream(true).redirectOutput(directory.resolve("stdout.log").toFile()).start();
      var nginx = new Nginx(process, directory, port);
      nginx.awaitListening();
      return nginx;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public int port() {
    return port;
  }

  private void awaitListening() throws IOException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_MILLIS);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("nginx exited with " + process.exitValue() + ": "
          + Files.readString(directory.resolve("stdout.log")));
      }
      try (var socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
        return;
      } catch (IOException notYet) {
        try {
          // waiting for a state (the port accepting), polled
          process.waitFor(50, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
      }
    }
    throw new IllegalStateException("nginx did not listen on " + port + " within " + START_MILLIS + " ms");
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
