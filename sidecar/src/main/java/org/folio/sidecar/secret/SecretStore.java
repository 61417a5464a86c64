package org.folio.sidecar.secret;

import io.vertx.core.Future;
import org.folio.sidecar.error.SidecarError;

/**
 * Where client secrets come from, by upstream's key {@code <env>_<tenant>_<clientId>}. The future fails with a
 * {@link org.folio.sidecar.error.SidecarError}: a missing key names the key (never a value), an unreachable
 * store is a 503.
 */
public interface SecretStore {

  Future<String> secret(String key);

  /** Forgets a cached value, e.g. after Keycloak refused it (the secret may have been rotated). */
  default void forget(String key) {
  }

  /** When Keycloak refused credentials read under {@code keys} (401), forgets them: the next attempt reads anew. */
  default void forgetWhenRefused(Throwable error, String... keys) {
    if (error instanceof SidecarError sidecarError && sidecarError.status() == 401) {
      for (var key : keys) {
        forget(key);
      }
    }
  }
}
