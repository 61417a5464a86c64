package org.folio.sidecar.platform;

/**
 * A platform service did not answer 200: which one, and its status ({@link #UNREACHABLE} when no answer came).
 * Stackless: it is an expected outcome, logged as one line.
 */
public final class PlatformCallException extends RuntimeException {

  public static final int UNREACHABLE = 503;

  private final int status;
  private final String description;

  PlatformCallException(String service, int status, String reason) {
    super(service + " " + reason, null, false, false);
    this.status = status;
    this.description = service + " " + reason;
  }

  public int status() {
    return status;
  }

  /** Which service, and what it did ("mgr-applications answered 404"). */
  public String description() {
    return description;
  }
}
