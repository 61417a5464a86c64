package org.folio.sidecar.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithConverter;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** The sidecar's own HTTP behaviour. Property {@code sidecar.x-y} is variable {@code SIDECAR_X_Y}. */
@ConfigMapping(prefix = "sidecar")
public interface SidecarConfig {

  /** SIDECAR_URL: this sidecar's URL, sent to the module as {@code x-okapi-url}. Required, as upstream. */
  String url();

  /**
   * REQUEST_TIMEOUT (milliseconds, as upstream): limit for connecting to the module and for each wait on it
   * (response headers, a pause in the body stream).
   */
  @WithDefault("60000")
  long requestTimeout();

  /**
   * SIDECAR_FORWARD_CONNECT_TIMEOUT: limit for getting a connection to a module, egress target or the gateway (a
   * free one from the pool, or a new one) and writing the request head on it; then the request is answered 502
   * and holds nothing. Independent of REQUEST_TIMEOUT, which bounds the wait for the answer and may be days.
   */
  @WithDefault("10s")
  Duration forwardConnectTimeout();

  /**
   * SIDECAR_SEND_TIMEOUT: how long a relay may stay paused because its receiver takes no byte (a caller that does
   * not read the answer, an HTTP/2 stream whose window stays shut, a module that does not read an upload) before
   * the caller's stream is reset and the module's connection closed; never past REQUEST_TIMEOUT. As nginx's
   * {@code send_timeout}, it bounds each pause, not the transfer.
   */
  @WithDefault("60s")
  Duration sendTimeout();

  /**
   * SIDECAR_FORWARD_MAX_CONNECTIONS_PER_CALLER: module connections one caller may hold at once (a verified
   * token's user, else the caller's address); past it a request is answered 429. Egress is not counted.
   */
  @WithDefault("100")
  int forwardMaxConnectionsPerCaller();

  /**
   * SIDECAR_MAX_BODY_SIZE, else upstream's QUARKUS_HTTP_LIMITS_MAX_BODY_SIZE (bytes, or {@code 10240K},
   * {@code 1G}): larger declared request bodies are refused with upstream's JSON 413. Bodies stream, so this
   * is a policy limit; 1G when neither is set.
   */
  @WithDefault("1G")
  @WithConverter(ByteSizeConverter.class)
  long maxBodySize();

  /** SIDECAR_HEALTH_PROBE_INTERVAL: how often readiness re-checks the module and Keycloak. */
  @WithDefault("10s")
  Duration healthProbeInterval();

  /** SIDECAR_ACCESS_LOG_ENABLED: one line per request on the {@code transaction} logger. */
  @WithDefault("true")
  boolean accessLogEnabled();

  /** ALLOW_CROSS_TENANT_REQUESTS: a user token of one tenant may act in another through impersonation (consortia). */
  @WithDefault("false")
  boolean allowCrossTenantRequests();

  /**
   * SIDECAR_WILDCARD_PERMISSION_TOKEN_ONLY: an endpoint whose {@code permissionsRequired} is exactly {@code ["*"]}
   * needs a valid token of the tenant and no Keycloak decision (upstream branch MODSIDECAR-198, not merged). Off,
   * as upstream master: Keycloak is asked about the endpoint like any other.
   */
  @WithDefault("false")
  boolean wildcardPermissionTokenOnly();

  /**
   * SIDECAR_ERROR_CAUSE_IN_BODY: add the reason of an error to its body as upstream's
   * {@code parameters[{key: cause}]}, for debugging. Off: bodies hold exactly upstream's members and the reason
   * goes to the access line.
   */
  @WithDefault("false")
  boolean errorCauseInBody();

  /**
   * SIDECAR_ACCESS_LOG_QUEUE_SIZE: access lines waiting for the console; beyond it lines are dropped and counted
   * rather than stall requests.
   */
  @WithDefault("10000")
  int accessLogQueueSize();

  /**
   * SIDECAR_ACCESS_LOG_LINGER: how long the access-log writer keeps looking for lines every 10 ms after the last
   * one before it waits to be woken by the next; under traffic it never waits (no wake-up per request), idle it
   * costs nothing.
   */
  @WithDefault("1s")
  Duration accessLogLinger();

  /**
   * SC_ACCESS_LOG_FORMAT: the access line in upstream's notation ({@code %X{field}}, {@code %d{pattern}});
   * unset, upstream's default; {@code compact} for the sidecar's own compact line (milliseconds, reason).
   */
  Optional<String> accessLogFormat();

  /** SIDECAR_MODULE_PATH_PREFIX_*: upstream's handling of {@code /<MODULE_NAME>/...} paths. */
  ModulePathPrefix modulePathPrefix();

  /** Upstream's module path prefix settings. */
  interface ModulePathPrefix {

    /** How a {@code /<MODULE_NAME>} prefix is handled, as upstream's ModulePrefixStrategy. */
    enum Strategy {
      /** Routes match without the prefix; the module receives paths with it (added when missing). */
      PROXY,
      /** Routes match without the prefix; the module receives paths without it. */
      STRIP,
      /** Paths are used as they come. */
      NONE
    }

    /** SIDECAR_MODULE_PATH_PREFIX_ENABLED: true means PROXY, whatever the strategy says (as upstream). */
    @WithDefault("false")
    boolean enabled();

    /** SIDECAR_MODULE_PATH_PREFIX_STRATEGY: {@code NONE}, {@code PROXY} or {@code STRIP}. */
    @WithDefault("NONE")
    Strategy strategy();
  }
}
