package org.folio.sidecar.token;

/**
 * FOLIO tenant names are realm names and end up in Keycloak URLs, so only the characters FOLIO allows get
 * through: a lower-case letter first, then lower-case letters, digits and underscores, at most 63 in all.
 */
public final class TenantNames {

  private static final int MAX_LENGTH = 63;

  private TenantNames() {
  }

  public static boolean isValid(String name) {
    if (name == null || name.isEmpty() || name.length() > MAX_LENGTH) {
      return false;
    }
    char first = name.charAt(0);
    if (first < 'a' || first > 'z') {
      return false;
    }
    for (int i = 1; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) {
        return false;
      }
    }
    return true;
  }
}
