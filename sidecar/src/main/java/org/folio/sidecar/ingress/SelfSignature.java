package org.folio.sidecar.ingress;

import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The marker the sidecar adds to requests it sends its module, so a request that comes back carrying it is
 * known to be the sidecar's own. Upstream derives it from the start-up millisecond, which anyone can guess;
 * this one is 256 random bits per process, compared in constant time.
 */
@Singleton
public class SelfSignature {

  private final String value;
  private final byte[] bytes;

  SelfSignature() {
    var random = new byte[32];
    new SecureRandom().nextBytes(random);
    this.value = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    this.bytes = value.getBytes(StandardCharsets.US_ASCII);
  }

  public String value() {
    return value;
  }

  public boolean matches(String candidate) {
    return candidate != null && MessageDigest.isEqual(bytes, candidate.getBytes(StandardCharsets.US_ASCII));
  }
}
