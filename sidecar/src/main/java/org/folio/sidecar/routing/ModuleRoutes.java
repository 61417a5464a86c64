package org.folio.sidecar.routing;

import java.util.List;
import java.util.Map;

/**
 * Everything routing knows about the module and its dependencies at one moment: its own endpoints (ingress),
 * the endpoints of the modules it requires (egress) and where those modules were discovered.
 */
public record ModuleRoutes(RoutingTable ingress, RoutingTable egress, Map<String, String> locationByModuleId,
  List<String> modulePermissions, boolean systemUserRequired) {

  public static final ModuleRoutes NONE = new ModuleRoutes(new RoutingTable(List.of()), new RoutingTable(List.of()),
    Map.of(), List.of(), false);

  /**
   * {@code systemUserRequired}: the bootstrap says the module needs a system user, so its egress calls without
   * a user token get the system user's token.
   */
  public ModuleRoutes(RoutingTable ingress, RoutingTable egress, Map<String, String> locationByModuleId,
    boolean systemUserRequired) {
    this(ingress, egress, locationByModuleId, ingress.entries().stream()
      .flatMap(entry -> entry.modulePermissions().stream()).distinct().toList(), systemUserRequired);
  }

  /**
   * What the module may pass on to a target endpoint desiring {@code desired}: its own module permissions
   * that start with a desired name (a trailing {@code *} dropped), as upstream's ModulePermissionPopulator.
   */
  public List<String> modulePermissionsFor(List<String> desired) {
    return modulePermissions.stream()
      .filter(permission -> desired.stream()
        .anyMatch(name -> permission.startsWith(name.endsWith("*") ? name.substring(0, name.length() - 1) : name)))
      .toList();
  }

  /** {@code mod-users} of {@code mod-users-19.1.0-SNAPSHOT.42}: the id up to the dash before the version. */
  public static String moduleName(String moduleId) {
    for (int i = 0; i < moduleId.length() - 1; i++) {
      if (moduleId.charAt(i) == '-' && Character.isDigit(moduleId.charAt(i + 1))) {
        return moduleId.substring(0, i);
      }
    }
    return moduleId;
  }
}
