package org.folio.sidecar.authz;

import org.jboss.logging.Logger;

/**
 * One DEBUG line per authorization decision of the cache, saying why it answered as it did: an operator asked why a
 * user was let in or refused, or why Keycloak was (not) asked, reads it beside Keycloak's own answer (the UMA
 * decision line). The line names the decision's key, never the token. At INFO a decision costs one level check: the
 * reasons are constants and the arguments exist already.
 */
final class DecisionLog {

  /** Why the cache answered as it did; the text is what the line says. */
  enum Reason {
    HIT_PERMIT("hit (permit)"), HIT_DENY("hit (deny)"), HIT_UNAUTHENTICATED("hit (unauthenticated)"),
    /** A grant past refresh-after: served, and Keycloak re-checks it behind the request. */
    REFRESH("hit (permit), re-checked in the background"), MISS("miss, Keycloak asked"),
    /** Another request of the same key is asking Keycloak already: this one waits for that answer. */
    JOINED("miss, joined the Keycloak call in flight"),
    /** A grant past its TTL that Keycloak answered again. */
    RECHECKED("expired, re-checked by Keycloak"),
    /** A grant past its TTL whose re-check failed for another reason than Keycloak not answering. */
    RECHECK_FAILED("expired, re-check failed"),
    /** A grant past its TTL served because Keycloak did not answer its re-check. */
    STALE_SERVED("stale grant served, Keycloak did not answer"), ENDED_SESSION_REFUSED("ended session refused"),
    /**
     * Only Keycloak can tell whether the session ended: its user logged out everywhere about when its token was
     * issued, or its tenant's ended sessions outgrew their bound.
     */
    SESSION_IN_DOUBT("not cached, session in doubt (a logout-all, or ended sessions past their bound): Keycloak asked"),
    /** The entry found was being evicted or invalidated as it was read. */
    REMOVED("not cached, entry being removed: Keycloak asked");

    final String text;

    Reason(String text) {
      this.text = text;
    }
  }

  private static final Logger LOGGER = Logger.getLogger(DecisionLog.class);

  private DecisionLog() {
  }

  static void log(Reason reason, AuthorizationRequest request) {
    if (LOGGER.isDebugEnabled()) {
      var token = request.token();
      LOGGER.debugf("Authorization cache %s for tenant %s, client %s, user %s, permission %s", reason.text,
        request.tenant(), token.clientId(), token.userId() == null ? "-" : token.userId(), request.permission());
    }
  }

  static Reason hit(Decision decision) {
    return switch (decision) {
      case PERMIT -> Reason.HIT_PERMIT;
      case DENY -> Reason.HIT_DENY;
      case UNAUTHENTICATED -> Reason.HIT_UNAUTHENTICATED;
    };
  }
}
