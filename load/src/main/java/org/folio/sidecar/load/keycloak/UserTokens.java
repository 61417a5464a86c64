package org.folio.sidecar.load.keycloak;

import com.sun.net.httpserver.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.folio.sidecar.testkit.KeycloakAdmin;
import org.folio.sidecar.testkit.TestTenant;

/**
 * The users' side of token refresh: every user logs in once and then refreshes its session's token every 70 % of
 * its lifetime, as FOLIO's UI does, so tokens keep their session and change their {@code exp}. The first
 * refreshes are spread evenly over that period. The load
 * generator reads the current tokens from {@code GET /tokens}. Talks to Keycloak directly, not through the
 * counting hop: only the sidecars' calls are counted.
 */
public final class UserTokens implements AutoCloseable {

  private final KeycloakAdmin keycloak;
  private final List<LoadRealms.LoadUser> users;
  private final AtomicReferenceArray<JsonObject> logins;
  private final ScheduledExecutorService refresher = Executors.newScheduledThreadPool(2);
  private final AtomicInteger refreshes = new AtomicInteger();
  private final AtomicInteger failures = new AtomicInteger();
  private HttpServer server;

  public UserTokens(KeycloakAdmin keycloak, List<LoadRealms.LoadUser> users) {
    this.keycloak = keycloak;
    this.users = users;
    this.logins = new AtomicReferenceArray<>(users.size());
  }

  /** Logs every user in, schedules the refreshes and serves the tokens on {@code port}. */
  public void start(int port) throws IOException {
    for (int i = 0; i < users.size(); i++) {
      var user = users.get(i);
      logins.set(i, keycloak.token(user.tenant(), Map.of("grant_type", "password",
        "client_id", user.tenant() + "-login-application", "client_secret", TestTenant.LOGIN_SECRET,
        "username", user.username(), "password", TestTenant.PASSWORD)));
    }
    // spread over the refresh period: users of a real library log in at different times, and refreshes all due
    // at once would be bursts of Keycloak work that neither variant would see in production
    for (int i = 0; i < users.size(); i++) {
      long periodMillis = refreshPeriodMillis(i);
      scheduleRefresh(i, periodMillis * (i + 1) / users.size());
    }
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 16);
    server.createContext("/tokens", exchange -> {
      var body = current().encode().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("content-type", "application/json");
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
  }

  public JsonArray current() {
    var array = new JsonArray();
    for (int i = 0; i < users.size(); i++) {
      var user = users.get(i);
      array.add(new JsonObject().put("tenant", user.tenant()).put("userId", user.userId())
        .put("username", user.username()).put("token", logins.get(i).getString("access_token")));
    }
    return array;
  }

  public int refreshes() {
    return refreshes.get();
  }

  public int failures() {
    return failures.get();
  }

  /** 70 % of the current token's lifetime. */
  private long refreshPeriodMillis(int index) {
    return logins.get(index).getLong("expires_in") * 1000 * 7 / 10;
  }

  private void scheduleRefresh(int index, long delayMillis) {
    refresher.schedule(() -> refresh(index), delayMillis, TimeUnit.MILLISECONDS);
  }

  private void refresh(int index) {
    var user = users.get(index);
    try {
      logins.set(index, keycloak.token(user.tenant(), Map.of("grant_type", "refresh_token",
        "client_id", user.tenant() + "-login-application", "client_secret", TestTenant.LOGIN_SECRET,
        "refresh_token", logins.get(index).getString("refresh_token"))));
      refreshes.incrementAndGet();
    } catch (RuntimeException e) {
      failures.incrementAndGet();
    }
    scheduleRefresh(index, refreshPeriodMillis(index));
  }

  @Override
  public void close() {
    refresher.shutdownNow();
    if (server != null) {
      server.stop(0);
    }
  }
}
