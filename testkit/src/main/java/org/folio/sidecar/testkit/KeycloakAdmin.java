package org.folio.sidecar.testkit;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;

/** Keycloak's Admin REST API and token endpoint, as FOLIO's managers call them; blocking, for test set-up only. */
public final class KeycloakAdmin {

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String baseUrl;
  private String adminToken;
  private long adminTokenRenewAt;

  public KeycloakAdmin(String baseUrl) {
    this.baseUrl = baseUrl;
  }

  public String baseUrl() {
    return baseUrl;
  }

  /** POSTs a form to a realm's token endpoint and returns the JSON answer; fails on any status but 200. */
  public JsonObject token(String realm, Map<String, String> form) {
    var response = send(
      HttpRequest.newBuilder(URI.create(baseUrl + "/realms/" + realm + "/protocol/openid-connect/token"))
        .header("content-type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(encode(form))).build());
    if (response.statusCode() != 200) {
      throw new IllegalStateException(
        "token request to " + realm + " failed: " + response.statusCode() + " " + response.body());
    }
    return new JsonObject(response.body());
  }

  public int postForm(String path, Map<String, String> form) {
    return send(HttpRequest.newBuilder(URI.create(baseUrl + path))
      .header("content-type", "application/x-www-form-urlencoded")
      .POST(HttpRequest.BodyPublishers.ofString(encode(form))).build()).statusCode();
  }

  /** The admin's token, reused while it has 10 s left: each login costs Keycloak a full password hash. */
  private synchronized String adminToken() {
    if (adminToken == null || System.nanoTime() > adminTokenRenewAt) {
      var answer = token("master", Map.of("grant_type", "password", "client_id", "admin-cli", "username", "admin",
        "password", "admin"));
      adminToken = answer.getString("access_token");
      adminTokenRenewAt = System.nanoTime() + (answer.getLong("expires_in", 60L) - 10) * 1_000_000_000L;
    }
    return adminToken;
  }

  /** Calls the Admin REST API ({@code path} below {@code /admin/realms}); returns status, body and Location. */
  public Answer call(String method, String path, Object body) {
    var builder = HttpRequest.newBuilder(URI.create(baseUrl + "/admin/realms" + path))
      .header("authorization", "Bearer " + adminToken())
      .header("content-type", "application/json")
      .method(method, body == null
        ? HttpRequest.BodyPublishers.noBody()
        : HttpRequest.BodyPublishers.ofString(body.toString()));
    var response = send(builder.build());
    return new Answer(response.statusCode(), response.body(), response.headers().firstValue("location").orElse(null));
  }

  public Answer expect(String method, String path, Object body, int... statuses) {
    var answer = call(method, path, body);
    for (int status : statuses) {
      if (answer.status() == status) {
        return answer;
      }
    }
    throw new IllegalStateException(method + " " + path + " answered " + answer.status() + ": " + answer.body());
  }

  private HttpResponse<String> send(HttpRequest request) {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      throw new IllegalStateException("Keycloak call failed: " + request.uri(), e);
    }
  }

  static String encode(Map<String, String> form) {
    return form.entrySet().stream()
      .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
      .collect(Collectors.joining("&"));
  }

  /** An Admin API answer. */
  public record Answer(int status, String body, String location) {

    public JsonObject json() {
      return new JsonObject(body);
    }

    public JsonArray array() {
      return new JsonArray(body);
    }

    public String createdId() {
      return location.substring(location.lastIndexOf('/') + 1);
    }
  }
}
