package org.folio.sidecar.load.fleet;

import java.util.HashMap;
import java.util.Map;
import org.folio.sidecar.testkit.FreePorts;

/**
 * The loopback ports of a circulation fleet, by module name: each stub module's, each sidecar's, and where
 * discovery places each module (its sidecar). The maps are the caller's to change: a run points discovery or a
 * sidecar elsewhere (a trap, a relay).
 */
public record FleetPorts(Map<String, Integer> modules, Map<String, Integer> sidecars, Map<String, String> discovery) {

  /** A module port and a sidecar port for every module of {@link CirculationModules#ALL}. */
  public static FleetPorts allocate() {
    var ports = new FleetPorts(new HashMap<>(), new HashMap<>(), new HashMap<>());
    for (var module : CirculationModules.ALL) {
      ports.modules().put(module.name(), FreePorts.next());
      ports.sidecars().put(module.name(), FreePorts.next());
      ports.discovery().put(module.name(), "http://127.0.0.1:" + ports.sidecars().get(module.name()));
    }
    return ports;
  }
}
