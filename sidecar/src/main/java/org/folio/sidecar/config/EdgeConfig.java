package org.folio.sidecar.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithConverter;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * Which protocols the sidecar's port speaks, and what a slow or hostile client may hold on it, beyond Quarkus' own limits
 * ({@code quarkus.http.idle-timeout}, {@code quarkus.http.limits.*}). Defaults are nginx's.
 */
@ConfigMapping(prefix = "edge")
public interface EdgeConfig {

  /**
   * SIDECAR_REQUEST_HEAD_TIMEOUT: a request head (request line and headers) must be complete this long after its
   * first byte, or after the connection opened; else the connection is closed (nginx's client_header_timeout).
   */
  @WithDefault("60s")
  Duration requestHeadTimeout();

  /**
   * SIDECAR_REQUEST_BODY_TIMEOUT: the longest pause between two reads of a request body while the sidecar is
   * ready to read it; then the connection is closed (nginx's client_body_timeout).
   */
  @WithDefault("60s")
  Duration requestBodyTimeout();

  /**
   * SIDECAR_HTTP2_ENABLED: serve HTTP/2 (h2c upgrade and prior knowledge on the plain port, h2 by ALPN over TLS).
   * Off by default: FOLIO's gateway, sidecars and modules speak HTTP/1.1 to a sidecar, and HTTP/2 is protocol
   * surface no caller needs.
   */
  @WithDefault("false")
  boolean http2Enabled();

  /**
   * SIDECAR_SEND_BUFFER_SIZE: the kernel send buffer of each caller connection (SO_SNDBUF; Linux doubles it for its
   * bookkeeping and caps it at {@code net.core.wmem_max}); 0 leaves it to the kernel's autotuning, which grows it
   * to {@code net.ipv4.tcp_wmem}'s maximum (4 MiB by default). What a caller that stops reading pins in the
   * pod's kernel memory per connection until SIDECAR_SEND_TIMEOUT cuts it; also the most one connection has in
   * flight, so its throughput is at most about twice this per round trip.
   */
  @WithDefault("256K")
  @WithConverter(ByteSizeConverter.class)
  long sendBufferSize();
}
