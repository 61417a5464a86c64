package org.folio.sidecar.token;

/**
 * The claims of a token whose signature, issuer and expiry were checked. {@code tenant} is the realm it was
 * issued by; {@code userId} and {@code sessionId} are absent for service (client-credentials) tokens.
 */
public record VerifiedToken(
  String raw,
  String tenant,
  String clientId,
  String subject,
  String userId,
  String sessionId,
  long expiresAtSeconds) {
}
