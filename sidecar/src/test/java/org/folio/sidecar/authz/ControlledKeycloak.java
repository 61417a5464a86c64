package org.folio.sidecar.authz;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.List;
import org.folio.sidecar.error.SidecarError;

/** A Keycloak whose every decision call stays open until the test answers it, so any interleaving can be played. */
final class ControlledKeycloak implements AuthorizationDecider {

  /** One decision call: what was asked, when (step of the sequence), and its answer to give. */
  static final class Call {
    final DecisionKey key;
    final AuthorizationRequest request;
    final int startedAtStep;
    final Promise<Decision> answer = Promise.promise();
    boolean orphaned;

    Call(AuthorizationRequest request, int startedAtStep) {
      this.key = DecisionKey.of(request.tenant(), request.permission(), request.token());
      this.request = request;
      this.startedAtStep = startedAtStep;
    }

    void allow() {
      answer.complete(Decision.PERMIT);
    }

    void deny() {
      answer.complete(Decision.DENY);
    }

    void fail() {
      answer.fail(KeycloakUnreachable.error("played outage", null));
    }

    /** Keycloak: the token's session is not active. */
    void unauthenticated() {
      answer.complete(Decision.UNAUTHENTICATED);
    }

    /** This sidecar's own queue was full: Keycloak was never asked. */
    void busy() {
      answer.fail(SidecarError.keycloakUnavailable("played full queue"));
    }
  }

  final List<Call> pending = new ArrayList<>();
  int step;
  int calls;

  @Override
  public Future<Decision> decide(AuthorizationRequest request) {
    var call = new Call(request, step);
    pending.add(call);
    calls++;
    return call.answer.future();
  }
}
