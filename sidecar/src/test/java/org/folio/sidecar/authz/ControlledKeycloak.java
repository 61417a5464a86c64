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
    final int startedAtStep;
    final Promise<Decision> answer = Promise.promise();
    boolean orphaned;

    Call(DecisionKey key, int startedAtStep) {
      this.key = key;
      this.startedAtStep = startedAtStep;
    }

    void allow() {
      answer.complete(Decision.PERMIT);
    }

    void deny() {
      answer.complete(Decision.DENY);
    }

    void fail() {
      answer.fail(SidecarError.keycloakUnavailable("played outage"));
    }
  }

  final List<Call> pending = new ArrayList<>();
  int step;
  int calls;

  @Override
  public Future<Decision> decide(AuthorizationRequest request) {
    var call = new Call(DecisionKey.of(request.tenant(), request.permission(), request.token()), step);
    pending.add(call);
    calls++;
    return call.answer.future();
  }
}
