package org.folio.sidecar.load.ab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.folio.sidecar.testkit.CountingHop;

/**
 * The SIP2-like scenario's section of the A/B report (issue 45 item 3): a fresh login per transaction, so what a
 * decision cache keyed by session cannot serve. Its targets were written before the first run and are not tuned.
 */
final class Sip2Report {

  /** Decision calls per transaction after a user's first transaction. */
  static final double TARGET_CALLS = 0.1;
  /** The first request after a login, p50, against the baseline's. */
  static final double TARGET_FIRST_P50 = 0.5;

  private Sip2Report() {
  }

  static void append(Path report, AbRun.Profile profile, int users, List<AbRun.VariantResult> results,
    Map<String, Long> decisionEntries) throws IOException {
    var text = new StringBuilder();
    text.append("\n## SIP2-like scenario: a fresh login per transaction\n\n");
    text.append(String.format("Each transaction: a password grant for the next of %d users (in turn), then `GET "
      + "/users/{id}` (the first request after the login, \"sip2-first\"), a check-out and a check-in with the new "
      + "token. Decision calls are the counting hop's UMA calls over the measured window (warm-up excluded) made with "
      + "the users' session tokens (issued to `<tenant>-login-application`), so each user's first transaction is in "
      + "them and refresh-ahead is too; the modules' calls on the check-out's and check-in's way, made with the "
      + "tenants' service tokens, are not (all UMA calls: the first column). \"After the first\" charges every "
      + "session call to the transactions that follow each user's first, calls / (transactions - users): an upper "
      + "bound. \"Asked again\" are the session calls beyond the first of each (user, permission) question: a "
      + "decision cache that holds a user's grants across sessions asks again only to refresh them (every allow TTL), "
      + "one keyed by session asks again at every login; per transaction after each user's first, they tell the two "
      + "causes apart, a figure and no target.%n%n", users));
    text.append("| run | transactions (logins) | all UMA calls | session decision calls | per transaction | per "
      + "transaction after each user's first (bound) | (user, permission) questions | asked again, per transaction "
      + "after each user's first | sip2-first p50 / p99 ms | decision-cache entries at the end |\n");
    text.append("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|\n");
    for (var result : results) {
      var logins = result.stats().get("sip2-login");
      var first = result.stats().get("sip2-first");
      long transactions = logins == null ? 0 : logins.ok();
      int all = result.keycloakCalls().getOrDefault(CountingHop.Kind.UMA, 0);
      int calls = result.sessionDecisionCalls();
      long entries = decisionEntries.getOrDefault(result.name(), -1L);
      int questions = result.sessionUserQuestions();
      text.append(String.format("| %s | %d | %d | %d | %s | %s | %d | %s | %s | %s |%n", result.name(), transactions,
        all, calls, ratio(calls, transactions), ratio(calls, transactions - users), questions,
        ratio(calls - questions, transactions - users),
        first == null ? "missing" : first.p50() + " / " + first.p99(), entries < 0 ? "not read" : entries));
    }
    text.append("\nTargets (issue 45, set before the run):\n\n");
    for (var result : results) {
      if (!result.variant().equals("optimized")) {
        continue;
      }
      var logins = result.stats().get("sip2-login");
      long transactions = logins == null ? 0 : logins.ok();
      double after = transactions > users
        ? (double) result.sessionDecisionCalls() / (transactions - users)
        : Double.NaN;
      text.append(String.format("- %s: decision calls per transaction after each user's first <= %.1f: %s (%s)%n",
        result.name(), TARGET_CALLS, Double.isNaN(after) ? "not measured" : after <= TARGET_CALLS ? "met" : "missed",
        Double.isNaN(after) ? "too few transactions" : String.format("%.2f", after)));
    }
    var baseP50 = p50(results, "baseline");
    var optP50 = p50(results, "optimized");
    text.append(String.format("- first request after the login, p50 <= %.1fx the baseline's: %s%n", TARGET_FIRST_P50,
      baseP50 <= 0 || optP50 < 0
        ? "not measured"
        : (optP50 <= TARGET_FIRST_P50 * baseP50 ? "met" : "missed")
          + String.format(" (%.0f against %.0f ms, %.2fx)", optP50, baseP50, optP50 / baseP50)));
    text.append(String.format("- memory: decision-cache entries per active user, not per session; the table's last "
      + "column over %d users (the profile: %s); 1,000 logins of 100 users asking 3 permissions each keep 300 entries "
      + "and cost 300 Keycloak calls "
      + "(`EndedSessionsTest.thousandLoginsOfAHundredUsersKeepOneEntryPerUserAndPermission`, "
      + "in every build), where a key with the session makes 3,000 keys (legacy mode: more than its 250 entries)%n",
      users, profile.name()));
    Files.writeString(report, text.toString(), StandardCharsets.UTF_8, StandardOpenOption.APPEND);
  }

  /** The mean of a variant's runs' sip2-first p50, -1 when none ran. */
  private static double p50(List<AbRun.VariantResult> results, String variant) {
    return results.stream().filter(r -> r.variant().equals(variant) && r.stats().containsKey("sip2-first"))
      .mapToLong(r -> r.stats().get("sip2-first").p50()).average().orElse(-1);
  }

  private static String ratio(long part, long whole) {
    return whole <= 0 ? "n/a" : String.format("%.2f", (double) part / whole);
  }
}
