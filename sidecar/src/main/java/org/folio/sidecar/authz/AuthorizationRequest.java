package org.folio.sidecar.authz;

import org.folio.sidecar.token.VerifiedToken;

/**
 * One authorization question: may the holder of {@code token} use {@code permission} ({@code /path#METHOD})
 * in {@code tenant}'s realm.
 */
public record AuthorizationRequest(String tenant, String permission, VerifiedToken token) {
}
