package org.folio.sidecar.testkit;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code prometheus} (Debian's) for the ops/ checks (LiveScrape, ChartSmoke): on a free loopback port, its
 * configuration, data and log in a given directory, stopped by {@link #close} or, when its check is ended by a
 * timeout's SIGTERM, by a shutdown hook; and the HTTP API's answers they read.
 */
final class PrometheusProcess implements AutoCloseable {

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final Process server;
  private final String url;

  private PrometheusProcess(Process server, String url) {
    this.server = server;
    this.url = url;
  }

  /** Starts prometheus with {@code config} (prometheus.yml's text) in {@code dir}. */
  static PrometheusProcess start(Path dir, String config) throws IOException {
    Files.writeString(dir.resolve("prometheus.yml"), config);
    int port = FreePorts.next();
    var server = new ProcessBuilder("prometheus", "--config.file=" + dir.resolve("prometheus.yml"),
      "--storage.tsdb.path=" + dir.resolve("data"), "--storage.tsdb.retention.time=1h",
      "--web.listen-address=127.0.0.1:" + port)
      .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
    Runtime.getRuntime().addShutdownHook(new Thread(server::destroy));
    return new PrometheusProcess(server, "http://127.0.0.1:" + port);
  }

  String url() {
    return url;
  }

  JsonArray query(String expr) throws IOException, InterruptedException {
    return get("/api/v1/query?query=" + encode(expr)).getJsonObject("data").getJsonArray("result");
  }

  JsonArray series(String selector) throws IOException, InterruptedException {
    return get("/api/v1/series?match[]=" + encode(selector)).getJsonArray("data");
  }

  JsonObject get(String path) throws IOException, InterruptedException {
    var request = HttpRequest.newBuilder(URI.create(url + path)).timeout(Duration.ofSeconds(10)).build();
    var response = http.send(request, HttpResponse.BodyHandlers.ofString());
    // while it starts it answers 503 in plain text; its API errors (400, 422) are JSON with the reason
    if (!response.body().startsWith("{")) {
      throw new IOException("prometheus answered " + response.statusCode() + " to " + path);
    }
    return new JsonObject(response.body());
  }

  static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws InterruptedException {
    server.destroy();
    if (!server.waitFor(15, TimeUnit.SECONDS)) {
      server.destroyForcibly();
    }
  }
}
