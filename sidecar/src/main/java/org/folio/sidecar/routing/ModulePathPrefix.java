package org.folio.sidecar.routing;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.folio.sidecar.config.ModuleConfig;
import org.folio.sidecar.config.SidecarConfig;
import org.folio.sidecar.config.SidecarConfig.ModulePathPrefix.Strategy;

/**
 * Upstream's module path prefix (SIDECAR_MODULE_PATH_PREFIX_ENABLED / _STRATEGY): with PROXY or STRIP a path
 * {@code /<MODULE_NAME>/...} is routed as {@code /...}; the module then receives it with the prefix (PROXY, which
 * adds it when the caller left it out) or without (STRIP); calls to other modules and the gateway lose it. Unlike
 * upstream, the prefix is a whole path segment: {@code /mod-items-storage/x} is not {@code /mod-items} + {@code -storage/x}.
 */
@Singleton
public class ModulePathPrefix {

  private final Strategy strategy;
  private final String prefix;

  @Inject
  public ModulePathPrefix(ModuleConfig module, SidecarConfig sidecar) {
    this(module.name(), sidecar.modulePathPrefix().enabled() ? Strategy.PROXY : sidecar.modulePathPrefix().strategy());
  }

  ModulePathPrefix(String moduleName, Strategy strategy) {
    this.strategy = strategy;
    this.prefix = "/" + moduleName;
  }

  /** The path routes are looked up by. */
  public String routingPath(String path) {
    return strategy == Strategy.NONE ? path : stripped(path);
  }

  /** The path and query (a request's {@code uri()}) sent to the module. */
  public String toModule(String uri) {
    return switch (strategy) {
      case NONE -> uri;
      case STRIP -> stripped(uri);
      case PROXY -> hasPrefix(uri) ? uri : prefix + uri;
    };
  }

  /** The path and query sent to another module or the gateway. */
  public String toOthers(String uri) {
    return routingPath(uri);
  }

  private String stripped(String uri) {
    if (!hasPrefix(uri)) {
      return uri;
    }
    var rest = uri.substring(prefix.length());
    return rest.isEmpty() || rest.charAt(0) == '?' ? "/" + rest : rest;
  }

  private boolean hasPrefix(String uri) {
    if (!uri.startsWith(prefix)) {
      return false;
    }
    if (uri.length() == prefix.length()) {
      return true;
    }
    char next = uri.charAt(prefix.length());
    return next == '/' || next == '?';
  }
}
