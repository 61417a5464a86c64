package org.folio.sidecar.testkit;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.folio.sidecar.testkit.CountingHop.Kind;

/** The test side of the {@link CountingHop}: counts by kind, cut-off and restore, over its control port. */
public final class HopControl {

  private final HttpClient http = HttpClient.newHttpClient();
  private final String url;

  public HopControl(String url) {
    this.url = url;
  }

  public int count(Kind kind) {
    return call("/counts").getInteger(kind.name());
  }

  /**
   * Token requests to the realms {@code realm} accepts: the sidecar's own token (the master realm's, renewed ahead
   * whenever a test runs long or moves the clock) is not a tenant's.
   */
  public int tokenRequests(java.util.function.Predicate<String> realm) {
    var byRealm = call("/counts").getJsonObject("TOKEN_BY_REALM");
    return byRealm.fieldNames().stream().filter(realm).mapToInt(byRealm::getInteger).sum();
  }

  public void cut() {
    call("/cut");
  }

  public void restore() {
    call("/restore");
  }

  public void resetCounts() {
    call("/reset");
  }

  /** Keycloak becomes slow: UMA calls get no answer until {@link #releaseUma()}. */
  public void holdUma() {
    call("/uma/hold");
  }

  /** Keycloak answers again, the held UMA calls first. */
  public void releaseUma() {
    call("/uma/release");
  }

  /** UMA calls held now, waiting for {@link #releaseUma()}. */
  public int heldUma() {
    return call("/counts").getInteger("HELD");
  }

  /** UMA calls are answered with Keycloak's 500 until {@link #answerUma()}. */
  public void failUma() {
    call("/uma/fail");
  }

  public void answerUma() {
    call("/uma/answer");
  }

  /** The Kafka broker becomes unreachable for every client. */
  public void cutKafka() {
    call("/kafka/cut");
  }

  public void restoreKafka() {
    call("/kafka/restore");
  }

  private JsonObject call(String path) {
    try {
      return new JsonObject(http.send(HttpRequest.newBuilder(URI.create(url + path)).build(),
        HttpResponse.BodyHandlers.ofString()).body());
    } catch (Exception e) {
      throw new IllegalStateException("hop control failed: " + path, e);
    }
  }
}
