package org.folio.sidecar.testkit;

import com.sun.net.httpserver.HttpServer;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.RsaJsonWebKey;

/**
 * Keycloak for one realm, played on loopback where its speed is not what is measured: it serves the realm's
 * signing key and grants every UMA question at once, and signs access tokens for as many users (each with a
 * session of its own) as a run needs, so a decision cache can be filled far beyond what a real Keycloak would
 * log in within a bounded test.
 */
public final class GrantingKeycloak implements AutoCloseable {

  private static final String KEY_ID = "granting-key";

  private final String realm;
  private final KeyPair keys;
  private final HttpServer server;
  private final ExecutorService executor = Executors.newFixedThreadPool(4);
  private final AtomicLong umaCalls = new AtomicLong();

  private GrantingKeycloak(String realm) throws IOException, GeneralSecurityException {
    this.realm = realm;
    // RS256 with a 2048-bit key, as a Keycloak realm signs by default
    var generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    this.keys = generator.generateKeyPair();
    var jwk = new RsaJsonWebKey((RSAPublicKey) keys.getPublic());
    jwk.setKeyId(KEY_ID);
    jwk.setUse("sig");
    jwk.setAlgorithm("RS256");
    var jwks = new JsonWebKeySet(jwk).toJson().getBytes(StandardCharsets.UTF_8);
    var grant = "{\"result\":true}".getBytes(StandardCharsets.UTF_8);
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/realms/" + realm + "/protocol/openid-connect/certs", exchange -> {
      exchange.getResponseHeaders().add("content-type", "application/json");
      exchange.sendResponseHeaders(200, jwks.length);
      exchange.getResponseBody().write(jwks);
      exchange.close();
    });
    server.createContext("/realms/" + realm + "/protocol/openid-connect/token", exchange -> {
      exchange.getRequestBody().readAllBytes();
      umaCalls.incrementAndGet();
      exchange.getResponseHeaders().add("content-type", "application/json");
      exchange.sendResponseHeaders(200, grant.length);
      exchange.getResponseBody().write(grant);
      exchange.close();
    });
    server.setExecutor(executor);
    server.start();
  }

  /** Starts it on a free loopback port. */
  public static GrantingKeycloak start(String realm) throws IOException, GeneralSecurityException {
    return new GrantingKeycloak(realm);
  }

  /** What the sidecar's {@code KC_URL} names. */
  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** The UMA questions asked so far (each one granted). */
  public long umaCalls() {
    return umaCalls.get();
  }

  /** One access token per user, each with its own session: as FOLIO's users log in. */
  public List<String> tokens(int users, long lifespanSeconds) {
    long now = System.currentTimeMillis() / 1000;
    var tokens = new ArrayList<String>(users);
    for (int u = 0; u < users; u++) {
      var claims = new JsonObject().put("iss", url() + "/realms/" + realm).put("typ", "Bearer")
        .put("azp", realm + "-login-application").put("sub", "kc-" + u).put("user_id", new UUID(7, u).toString())
        .put("sid", new UUID(11, u).toString()).put("iat", now).put("exp", now + lifespanSeconds);
      tokens.add(Tokens.sign(claims, keys.getPrivate(), KEY_ID, "RS256"));
    }
    return tokens;
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
