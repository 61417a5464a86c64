package org.folio.sidecar.token;

/**
 * The claims of a token whose signature, issuer and expiry were checked. {@code tenant} is the realm it was
 * issued by; {@code userId} and {@code sessionId} are absent for service (client-credentials) tokens.
 * {@code issuedAtSeconds} ({@code iat}, 0 when absent) tells a session's tokens from before a logout-all of its
 * user from those of a later login.
 */
public record VerifiedToken(
  String raw,
  String tenant,
  String clientId,
  String subject,
  String userId,
  String sessionId,
  long expiresAtSeconds,
  long issuedAtSeconds) {
}
