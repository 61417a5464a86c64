package org.folio.sidecar.load.fleet;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Debian's nginx as a plain reverse proxy in front of one stub module, the yardstick for the sidecar's
 * hit-path overhead: proxy_pass with upstream keep-alive (as the sidecar pools its connections), no access log.
 */
public final class Nginx implements AutoCloseable {

  private final Process process;

  private Nginx(Process process) {
    this.process = process;
  }

  /** Starts nginx on {@code port} proxying to {@code targetPort}; empty when nginx is not installed. */
  public static Optional<Nginx> start(int port, int targetPort, Path dir) throws IOException, InterruptedException {
    var binary = List.of("/usr/sbin/nginx", "/usr/bin/nginx").stream().map(Path::of).filter(Files::isExecutable)
      .findFirst();
    if (binary.isEmpty()) {
      return Optional.empty();
    }
    Files.createDirectories(dir.resolve("logs"));
    var config = dir.resolve("nginx.conf");
    Files.writeString(config, """
      worker_processes auto;
      daemon off;
      pid %1$s/nginx.pid;
      error_log %1$s/logs/error.log warn;
      events { worker_connections 4096; }
      http {
        access_log off;
        client_body_temp_path %1$s/body;
        proxy_temp_path %1$s/proxy;
        upstream module { server 127.0.0.1:%3$d; keepalive 64; }
        server {
          listen 127.0.0.1:%2$d;
          location / {
            proxy_pass http://module;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
          }
        }
      }
      """.formatted(dir.toAbsolutePath(), port, targetPort));
    var process = new ProcessBuilder(binary.get().toString(), "-p", dir.toAbsolutePath().toString(), "-c",
      config.toAbsolutePath().toString()).redirectErrorStream(true).redirectOutput(dir.resolve("logs/out.log").toFile())
      .start();
    for (int i = 0; i < 50; i++) {
      try (var ignored = new Socket("127.0.0.1", port)) {
        return Optional.of(new Nginx(process));
      } catch (IOException e) {
        if (!process.isAlive()) {
          throw new IOException("nginx exited with " + process.exitValue() + "; see " + dir.resolve("logs"));
        }
        Thread.sleep(100);
      }
    }
    process.destroy();
    throw new IOException("nginx did not listen on " + port);
  }

  /** The master process; its workers are its children. */
  public ProcessHandle handle() {
    return process.toHandle();
  }

  @Override
  public void close() {
    process.destroy();
  }
}
