package org.folio.sidecar.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

/**
 * The module this sidecar stands in front of. Property {@code module.x-y} is environment variable
 * {@code MODULE_X_Y}, the upstream names.
 */
@ConfigMapping(prefix = "module")
public interface ModuleConfig {

  /** MODULE_NAME: the module's name, e.g. {@code mod-inventory}. Required. */
  String name();

  /** MODULE_VERSION: appended to the name to form the module id when MODULE_ID is not set. */
  Optional<String> version();

  /** MODULE_ID: the full module id; defaults to {@code name-version}. */
  Optional<String> id();

  /** MODULE_URL: where the module listens. */
  @WithDefault("http://localhost:8081")
  String url();

  /** MODULE_HEALTH_PATH: the module's health path, probed for readiness. */
  @WithDefault("/admin/health")
  String healthPath();

  /**
   * MODULE_DESCRIPTOR_PATH: a ModuleDescriptor (or mgr-applications bootstrap) JSON file to take the
   * routing table from. Not an upstream variable: upstream only bootstraps from mgr-applications.
   */
  Optional<String> descriptorPath();

  default String moduleId() {
    return id().orElseGet(() -> version().map(v -> name() + "-" + v).orElse(name()));
  }
}
