package org.folio.sidecar.authz;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.folio.sidecar.config.AuthzCacheConfig;
import org.folio.sidecar.token.VerifiedToken;

/**
 * The sessions that have ended, held apart from the decisions, which are kept per user: a session named by a
 * logout event or answered "not active" by Keycloak, and every session a user had before a logout-all (a
 * watermark on the token's {@code iat}). Each is remembered for the longest token lifetime, after which every
 * token of it has expired; both sets are bounded, and a tenant whose ended session the bound pushed out has its
 * sessions decided by Keycloak, uncached, until that session's tokens have expired. Checked before the decision cache, so a token of an ended session
 * is never served a sibling session's grant (docs/authorization-cache.md, "Ended sessions").
 */
final class EndedSessions {

  /** What the sidecar knows of a token's session. */
  enum State {
    LIVE,
    /** Ended: refused without asking Keycloak, as Keycloak would refuse it. */
    ENDED,
    /** Issued within the clock skew of a logout-all of its user: only Keycloak can tell, so Keycloak decides. */
    UNSURE
  }

  private record SessionRef(String tenant, String sessionId) {
  }

  private record UserRef(String tenant, String userId) {
  }

  private final Cache<SessionRef, Boolean> sessions;
  private final Cache<UserRef, Long> loggedOutAt;
  /** Tenants that had an ended session pushed out by the size bound within the TTL. */
  private final Cache<String, Boolean> overflowed;
  private final long skewSeconds;
  private final Ticker ticker;
  private final long ttlNanos;
  private volatile long lastOverflowNanos;

  EndedSessions(AuthzCacheConfig config, Ticker ticker, MeterRegistry registry) {
    this.skewSeconds = config.clockSkew().toSeconds();
    this.ticker = ticker;
    this.ttlNanos = config.endedSessionTtl().toNanos();
    this.lastOverflowNanos = ticker.read() - ttlNanos;
    this.overflowed = Caffeine.newBuilder().maximumSize(config.endedSessionsMaxSize())
      .expireAfterWrite(config.endedSessionTtl()).ticker(ticker).executor(Runnable::run).build();
    // the size bound picks what to forget by frequency, so a session just ended can be the one: its tenant's
    // sessions are then in doubt, Keycloak decides them until the forgotten one's tokens have expired. Inside the
    // removal, so the session is never forgotten before its tenant is marked
    this.sessions = Caffeine.newBuilder().maximumSize(config.endedSessionsMaxSize())
      .expireAfterWrite(config.endedSessionTtl()).ticker(ticker).executor(Runnable::run)
      .<SessionRef, Boolean>evictionListener((session, ended, cause) -> {
        if (session != null && cause == RemovalCause.SIZE) {
          overflowed(session.tenant());
        }
      }).build();
    // kept as long as a session: after that every token issued before the logout-all has expired
    this.loggedOutAt = Caffeine.newBuilder().maximumSize(config.endedSessionsMaxSize())
      .expireAfterWrite(config.endedSessionTtl().plus(config.clockSkew())).ticker(ticker).executor(Runnable::run)
      .<UserRef, Long>evictionListener((user, at, cause) -> {
        if (user != null && cause == RemovalCause.SIZE) {
          overflowed(user.tenant());
        }
      }).build();
    Gauge.builder("sidecar.authz.ended.sessions", sessions, cache -> cache.estimatedSize())
      .description("ended sessions remembered (logout events, Keycloak's inactive-session answers)")
      .register(registry);
    Gauge.builder("sidecar.authz.ended.users", loggedOutAt, cache -> cache.estimatedSize())
      .description("users remembered as logged out everywhere (logout-all events)").register(registry);
  }

  private void overflowed(String tenant) {
    overflowed.put(tenant, Boolean.TRUE);
    lastOverflowNanos = ticker.read();
  }

  State of(String tenant, VerifiedToken token) {
    var sessionId = token.sessionId();
    if (sessionId == null) {
      // a service token: no session to end
      return State.LIVE;
    }
    if (sessions.getIfPresent(new SessionRef(tenant, sessionId)) != null) {
      return State.ENDED;
    }
    if (ticker.read() - lastOverflowNanos < ttlNanos && overflowed.getIfPresent(tenant) != null) {
      return State.UNSURE;
    }
    var userId = token.userId();
    var watermark = userId == null ? null : loggedOutAt.getIfPresent(new UserRef(tenant, userId));
    if (watermark == null) {
      return State.LIVE;
    }
    long issuedAt = token.issuedAtSeconds();
    if (issuedAt < watermark - skewSeconds) {
      return State.ENDED;
    }
    return issuedAt <= watermark + skewSeconds ? State.UNSURE : State.LIVE;
  }

  void endSession(String tenant, String sessionId) {
    sessions.put(new SessionRef(tenant, sessionId), Boolean.TRUE);
  }

  /** Every session of the user whose tokens were issued before {@code atEpochSeconds} has ended. */
  void endUser(String tenant, String userId, long atEpochSeconds) {
    loggedOutAt.asMap().merge(new UserRef(tenant, userId), atEpochSeconds, Math::max);
  }

  long sessionCount() {
    sessions.cleanUp();
    return sessions.estimatedSize();
  }
}
