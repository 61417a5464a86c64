package org.folio.sidecar.edge;

import io.quarkus.vertx.http.HttpServerOptionsCustomizer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpVersion;
import jakarta.inject.Singleton;
import java.util.List;
import org.folio.sidecar.config.EdgeConfig;

/**
 * HTTP/2 only when SIDECAR_HTTP2_ENABLED asks for it. Quarkus serves h2c (upgrade and prior knowledge) and offers
 * h2 by ALPN unless {@code quarkus.http.http2} is off, but that switch also drops the HTTP/2 limits Quarkus
 * applies; so Quarkus keeps them, and this customizer, run after Quarkus has built the options, takes HTTP/2 away.
 * An {@code Upgrade: h2c} request is then an ordinary HTTP/1.1 request (its hop-by-hop headers dropped), the
 * prior-knowledge preface is a malformed HTTP/1 request (400, closed), and TLS settles on {@code http/1.1}.
 */
@Singleton
public class Http2Switch implements HttpServerOptionsCustomizer {

  private final boolean enabled;

  Http2Switch(EdgeConfig config) {
    this.enabled = config.http2Enabled();
  }

  @Override
  public void customizeHttpServer(HttpServerOptions options) {
    if (!enabled) {
      options.setHttp2ClearTextEnabled(false);
    }
  }

  @Override
  public void customizeHttpsServer(HttpServerOptions options) {
    if (!enabled) {
      options.setHttp2ClearTextEnabled(false).setAlpnVersions(List.of(HttpVersion.HTTP_1_1));
    }
  }
}
