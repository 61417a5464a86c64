package org.folio.sidecar.token;

import java.util.Optional;

/** Where client secrets come from, by upstream's key {@code <env>_<tenant>_<clientId>}. */
public interface SecretStore {

  Optional<String> secret(String key);
}
