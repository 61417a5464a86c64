package org.folio.sidecar.admin;

import io.vertx.core.Future;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.folio.sidecar.config.AdminConfig;
import org.folio.sidecar.error.SidecarError;
import org.folio.sidecar.secret.SecretStore;
import org.jspecify.annotations.Nullable;

/**
 * Who may call the admin API: a caller presenting the secret stored under SIDECAR_ADMIN_SECRET_KEY as
 * {@code Authorization: Bearer <secret>}. No credential is 401; a wrong one, or any while the store holds no such
 * secret, is 403, so an unconfigured sidecar refuses everything. The secret store's own cache
 * (SIDECAR_SECRET_CACHE_TTL) bounds how long a rotated secret keeps working.
 */
@Singleton
public class AdminAuth {

  private static final String BEARER = "Bearer ";

  private final SecretStore secrets;
  private final AdminThrottle throttle;
  private final String key;

  AdminAuth(SecretStore secrets, AdminThrottle throttle, AdminConfig config) {
    this.secrets = secrets;
    this.throttle = throttle;
    this.key = config.secretKey();
  }

  /** The name an audit line gives a caller holding the credential: the key, never the secret. */
  String credentialId() {
    return "secret:" + key;
  }

  /** Succeeds with the caller's credential id, or fails with the 401, 403, 429 or 503 to answer. */
  Future<String> authenticate(HttpServerRequest request) {
    var header = request.getHeader("authorization");
    if (header == null || header.length() <= BEARER.length()
      || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      return Future.failedFuture(SidecarError.unauthorized("admin credential required"));
    }
    var address = address(request.remoteAddress());
    var wait = throttle.waitOf(address);
    if (!wait.isZero()) {
      long seconds = (wait.toMillis() + 999) / 1000;
      request.response().putHeader("retry-after", String.valueOf(seconds));
      return Future.failedFuture(SidecarError.tooManyAdminFailures(seconds));
    }
    var presented = header.substring(BEARER.length()).trim();
    return secrets.secret(key).transform(stored -> {
      if (stored.failed()) {
        return Future.failedFuture(stored.cause() instanceof SidecarError error && error.status() == 503
          ? error
          : SidecarError.forbidden("no admin credential configured (secret " + key + ")"));
      }
      var secret = stored.result();
      if (secret == null || secret.isBlank()) {
        return Future.failedFuture(SidecarError.forbidden("no admin credential configured (secret " + key + ")"));
      }
      // digests of equal length, compared in constant time: neither the secret's length nor its prefix leaks
      if (!MessageDigest.isEqual(sha256(secret), sha256(presented))) {
        throttle.failed(address);
        return Future.failedFuture(SidecarError.forbidden("wrong admin credential"));
      }
      throttle.succeeded(address);
      return Future.succeededFuture(credentialId());
    });
  }

  /** A peer's host address, without its port: each new connection has another. */
  private static String address(@Nullable SocketAddress peer) {
    return peer == null || peer.hostAddress() == null ? "-" : peer.hostAddress();
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
