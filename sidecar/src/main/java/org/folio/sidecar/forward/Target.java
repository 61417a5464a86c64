package org.folio.sidecar.forward;

import java.net.URI;

/** Where requests are forwarded: parsed once from a configured or discovered URL. */
public record Target(String host, int port, boolean ssl, String basePath) {

  public static Target parse(String url) {
    var uri = URI.create(url);
    boolean ssl = "https".equals(uri.getScheme());
    int port = uri.getPort() > 0 ? uri.getPort() : ssl ? 443 : 80;
    var path = uri.getRawPath() == null ? "" : uri.getRawPath();
    return new Target(uri.getHost(), port, ssl, path.endsWith("/") ? path.substring(0, path.length() - 1) : path);
  }
}
