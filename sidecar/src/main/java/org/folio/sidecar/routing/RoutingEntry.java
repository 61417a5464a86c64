package org.folio.sidecar.routing;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One endpoint of a module (the sidecar's own for ingress, a required one for egress): the methods and path it answers, the permissions it needs and the interface it
 * belongs to. The Keycloak permission name ({@code staticPath#METHOD}) is built once per declared method.
 */
public record RoutingEntry(
  String moduleId,
  String interfaceId,
  String interfaceType,
  String staticPath,
  PathPattern pattern,
  Set<String> methods,
  List<String> permissionsRequired,
  List<String> permissionsDesired,
  List<String> modulePermissions,
  Map<String, String> permissionByMethod) {

  public static final String TIMER_INTERFACE = "_timer";
  public static final String SYSTEM_TYPE = "system";
  public static final String MULTIPLE_TYPE = "multiple";
  public static final String TENANT_INTERFACE = "_tenant";
  public static final String WILDCARD_PERMISSION = "*";

  public static RoutingEntry of(String moduleId, String interfaceId, String interfaceType, String staticPath,
    Set<String> methods, List<String> permissionsRequired, List<String> permissionsDesired,
    List<String> modulePermissions) {
    var permissions = methods.stream()
      .filter(method -> !"*".equals(method))
      .collect(Collectors.toUnmodifiableMap(Function.identity(), method -> staticPath + "#" + method));
    return new RoutingEntry(moduleId, interfaceId, interfaceType, staticPath, PathPattern.compile(staticPath),
      Set.copyOf(methods), List.copyOf(permissionsRequired), List.copyOf(permissionsDesired),
      List.copyOf(modulePermissions), permissions);
  }

  public boolean allowsMethod(String method) {
    return methods.contains(method) || methods.contains("*");
  }

  /** The name Keycloak knows this endpoint's permission by, e.g. {@code /items/{id}#GET}. */
  public String permission(String method) {
    var permission = permissionByMethod.get(method);
    return permission != null ? permission : staticPath + "#" + method;
  }

  /** An interface several modules provide at once; x-okapi-module-id picks one. */
  public boolean isMultiple() {
    return MULTIPLE_TYPE.equals(interfaceType);
  }

  /** The tenant install ({@code _tenant}): mgr-tenant-entitlements calls it before the tenant is entitled. */
  public boolean isTenantInstall() {
    return TENANT_INTERFACE.equals(interfaceId);
  }

  public boolean isTimer() {
    return TIMER_INTERFACE.equals(interfaceId);
  }

  /** System interfaces ({@code _tenant} and the like) are called by the platform without a user; {@code _timer} is the exception. */
  public boolean isSystem() {
    return SYSTEM_TYPE.equals(interfaceType) && !isTimer();
  }

  /**
   * {@code permissionsRequired: ["*"]} exactly (MODSIDECAR-198): any valid token of the tenant will do, no named
   * permission is checked. A list with {@code *} beside other names is not this, nor is a timer.
   */
  public boolean requiresOnlyAToken() {
    return !isTimer() && permissionsRequired.size() == 1 && WILDCARD_PERMISSION.equals(permissionsRequired.get(0));
  }

  /** Whether a caller must hold a Keycloak permission: upstream asks Keycloak for timers and protected endpoints. */
  public boolean requiresAuthorization() {
    return isTimer() || (!isSystem() && !permissionsRequired.isEmpty());
  }
}
