package org.folio.sidecar.forward;

/** The FOLIO header names the sidecar reads or writes. */
public final class OkapiHeaders {

  /** Every Okapi header starts so; none of them is hop-by-hop. */
  public static final String OKAPI_PREFIX = "x-okapi-";
  public static final String TENANT = "x-okapi-tenant";
  public static final String TOKEN = "x-okapi-token";
  public static final String USER_ID = "x-okapi-user-id";
  public static final String REQUEST_ID = "x-okapi-request-id";
  public static final String URL = "x-okapi-url";
  public static final String PERMISSIONS = "x-okapi-permissions";
  public static final String SYSTEM_TOKEN = "x-system-token";
  public static final String SIGNATURE = "x-okapi-sidecar-signature";
  public static final String AUTHORIZATION = "authorization";
  public static final String MODULE_ID = "x-okapi-module-id";
  public static final String MODULE_HINT = "x-okapi-module-hint";
  public static final String RESPONSE_TIME = "x-response-time";

  private OkapiHeaders() {
  }
}
