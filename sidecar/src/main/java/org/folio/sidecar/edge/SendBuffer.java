package org.folio.sidecar.edge;

import io.quarkus.vertx.http.HttpServerOptionsCustomizer;
import io.vertx.core.http.HttpServerOptions;
import jakarta.inject.Singleton;
import org.folio.sidecar.config.EdgeConfig;

/**
 * SIDECAR_SEND_BUFFER_SIZE on every caller connection. Left to autotuning, the kernel lets a connection whose caller
 * reads nothing take about 2.8 MB of an answer before the relay stalls (4 MiB of buffer), so the 100 module
 * connections one caller may park pin some 280 MB of kernel memory that every socket of the node draws on, and
 * the burst of filling them is felt by every other caller; a fixed buffer also ends that autotuning. Out of range
 * values are left alone here: {@code ConfigValidator} refuses them at start-up with the variable's name.
 */
@Singleton
public class SendBuffer implements HttpServerOptionsCustomizer {

  private final long size;

  SendBuffer(EdgeConfig config) {
    this.size = config.sendBufferSize();
  }

  @Override
  public void customizeHttpServer(HttpServerOptions options) {
    apply(options);
  }

  @Override
  public void customizeHttpsServer(HttpServerOptions options) {
    apply(options);
  }

  private void apply(HttpServerOptions options) {
    if (size > 0 && size <= Integer.MAX_VALUE) {
      options.setSendBufferSize((int) size);
    }
  }
}
