package org.folio.sidecar.edge;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.AsciiString;
import io.quarkus.vertx.http.HttpServerStart;
import io.quarkus.vertx.http.HttpsServerStart;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.impl.Http1xOrH2CHandler;
import io.vertx.core.http.impl.HttpServerImpl;
import io.vertx.core.impl.VertxInternal;
import io.vertx.core.net.impl.TCPServerBase;
import jakarta.enterprise.event.ObservesAsync;
import jakarta.inject.Singleton;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import org.folio.sidecar.config.EdgeConfig;
import org.jspecify.annotations.Nullable;

/**
 * Puts {@link StrictRequestDecoder} in place of Vert.x's decoder on every HTTP/1 connection the sidecar's servers
 * accept. Neither Quarkus nor Vert.x offers a hook per connection, so this one handler sits on each server's
 * listening channel and sees each accepted connection before Vert.x sets it up; the listening channel is read
 * from Vert.x's server by reflection, and a Vert.x without that field stops the sidecar at start-up rather than
 * leave it unguarded.
 *
 * <p>With SIDECAR_HTTP2_ENABLED off, a server whose options still allow h2c (the management interface, whose options
 * Quarkus builds without any HTTP/2 setting and no customizer reaches) has each connection settled as HTTP/1 before
 * it reads a byte, as Vert.x settles one whose first bytes are not the HTTP/2 preface, and an {@code Upgrade: h2c}
 * served as plain HTTP/1.1. With HTTP/2 on, each connection that becomes HTTP/2 (prior knowledge, ALPN or an upgrade)
 * gets {@link H2ConnectRefusal} in front of Vert.x's frame listener.
 */
@Singleton
public class EdgeGuard {

  private static final String DECODER = "httpDecoder";
  private static final String ACCEPT_HOOK = "sidecarEdge";
  private static final String ENCODER = "httpEncoder";
  private static final String OPEN_CONNECTION = "sidecarOpenConnection";
  private static final String UPGRADE_TO_H2C = "h2c";
  private static final String NO_UPGRADE = "sidecarNoH2cUpgrade";
  private static final Method SETTLE = snifferSettle();
  private static final Field OPTIONS = field(HttpServerImpl.class, "options");
  private static final Field BIND_FUTURE = field(TCPServerBase.class, "bindFuture");
  private static final Duration LATE_SERVERS_WINDOW = Duration.ofSeconds(30);
  private static final Duration LATE_SERVERS_POLL = Duration.ofMillis(5);

  private final Vertx vertx;
  private final Drain drain;
  private final long headTimeoutNanos;
  private final long bodyTimeoutNanos;
  private final boolean http2Enabled;

  EdgeGuard(Vertx vertx, Drain drain, EdgeConfig config) {
    this.vertx = vertx;
    this.drain = drain;
    this.http2Enabled = config.http2Enabled();
    this.headTimeoutNanos = config.requestHeadTimeout().toNanos();
    this.bodyTimeoutNanos = config.requestBodyTimeout().toNanos();
  }

  void httpStarted(@ObservesAsync HttpServerStart started) {
    installWhileServersStart();
  }

  void httpsStarted(@ObservesAsync HttpsServerStart started) {
    installWhileServersStart();
  }

  /**
   * Quarkus binds the management interface after the main server, fires no event for it, and may fire the main
   * server's event before the management interface is bound: a guard put in place only at the events left the
   * management port unguarded (speaking h2c with HTTP/2 off) on a busy machine. So servers are looked for again every
   * few milliseconds for a while after each event, which guards one bound late within that interval.
   */
  private void installWhileServersStart() {
    install();
    long until = System.nanoTime() + LATE_SERVERS_WINDOW.toNanos();
    var unused = vertx.setPeriodic(LATE_SERVERS_POLL.toMillis(), id -> {
      install();
      if (System.nanoTime() > until) {
        vertx.cancelTimer(id);
      }
    });
  }

  /** Guards every listening HTTP server of this Vert.x that is not guarded yet; each start event calls it. */
  synchronized void install() {
    for (var server : ((VertxInternal) vertx).sharedHttpServers().values()) {
      var listening = listeningChannel(server);
      if (listening != null && listening.isOpen() && listening.pipeline().get(ACCEPT_HOOK) == null) {
        var options = (HttpServerOptions) read(OPTIONS, server);
        listening.pipeline().addFirst(ACCEPT_HOOK, new AcceptHook(options == null ? new HttpServerOptions() : options));
        drain.listening(listening);
      }
    }
  }

  private static @Nullable Channel listeningChannel(TCPServerBase server) {
    var bound = (Future<?>) read(BIND_FUTURE, server);
    return bound == null ? null : (Channel) bound.result();
  }

  // looked up once: install runs every few milliseconds while the servers start
  private static Field field(Class<?> type, String name) {
    try {
      Field field = type.getDeclaredField(name);
      field.setAccessible(true);
      return field;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(
        "This Vert.x has no " + type.getSimpleName() + "." + name + ": the edge guard cannot be put in place", e);
    }
  }

  private static @Nullable Object read(Field field, TCPServerBase server) {
    try {
      return field.get(server);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("the edge guard cannot read " + field.getName(), e);
    }
  }

  private static Method snifferSettle() {
    try {
      var settle = Http1xOrH2CHandler.class.getDeclaredMethod("configure", ChannelHandlerContext.class, boolean.class);
      settle.setAccessible(true);
      return settle;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(
        "This Vert.x has no Http1xOrH2CHandler.configure: the edge guard cannot keep h2c off", e);
    }
  }

  /** On the listening channel: each accepted connection gets a {@link ConnectionHook} ahead of Vert.x's set-up. */
  @ChannelHandler.Sharable
  private final class AcceptHook extends ChannelInboundHandlerAdapter {

    private final HttpServerOptions options;

    AcceptHook(HttpServerOptions options) {
      this.options = options;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
      if (message instanceof Channel accepted) {
        var open = new OpenConnection(accepted);
        drain.opened(open);
        var http1Only = !http2Enabled && options.isHttp2ClearTextEnabled();
        accepted.pipeline().addFirst(new ConnectionHook(options, open, http1Only, false));
      }
      ctx.fireChannelRead(message);
    }
  }

  /**
   * Swaps the decoder before it reads a byte. Vert.x adds its HTTP/1 handlers at once, after the TLS handshake,
   * or (with h2c) once the first bytes show the connection is not HTTP/2; in that last case a second hook goes
   * behind Vert.x's sniffing handler, which hands the bytes it read to the handler after it: the hook, then the
   * decoder it has just swapped.
   */
  private final class ConnectionHook extends ChannelInboundHandlerAdapter {

    private final HttpServerOptions options;
    private final OpenConnection open;
    private final boolean http1Only;
    private final boolean behindSniffer;

    ConnectionHook(HttpServerOptions options, OpenConnection open, boolean http1Only, boolean behindSniffer) {
      this.options = options;
      this.open = open;
      this.http1Only = http1Only;
      this.behindSniffer = behindSniffer;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      ctx.fireChannelActive();
      if (behindSniffer) {
        return;
      }
      open.registered();
      var pipeline = ctx.pipeline();
      var tls = pipeline.get(SslHandler.class);
      if (pipeline.get(DECODER) != null) {
        swap(pipeline, options, open);
      } else if (tls != null) {
        // Vert.x adds its HTTP handlers when the handshake completes; this listener runs right after its own
        tls.handshakeFuture().addListener(done -> {
          swap(pipeline, options, open);
          H2ConnectRefusal.install(pipeline);
        });
      } else if (http1Only) {
        settleAsHttp1(pipeline);
        swap(pipeline, options, open);
      } else {
        pipeline.addLast(new ConnectionHook(options, open, false, true));
      }
      pipeline.remove(this);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
      swap(ctx.pipeline(), options, open);
      H2ConnectRefusal.install(ctx.pipeline());
      ctx.pipeline().remove(this);
      ctx.fireChannelRead(message);
    }
  }

  /** What Vert.x's sniffer does for a connection that does not open with the HTTP/2 preface, done at once. */
  private static void settleAsHttp1(ChannelPipeline pipeline) {
    var sniffer = pipeline.get(Http1xOrH2CHandler.class);
    if (sniffer == null) {
      return;
    }
    try {
      SETTLE.invoke(sniffer, pipeline.context(sniffer), false);
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("Vert.x's HTTP/1 set-up of a connection failed", e);
    }
    pipeline.remove(sniffer);
    if (pipeline.get(UPGRADE_TO_H2C) != null) {
      // Vert.x's upgrade handler also sets up the HTTP/1 connection at the first request, so it stays, never asked
      pipeline.addBefore(UPGRADE_TO_H2C, NO_UPGRADE, new NoH2cUpgrade());
    }
  }

  /**
   * Takes {@code Upgrade: h2c} and its settings off the connection's first request (hop-by-hop headers, for this
   * hop only), so the upgrade handler behind serves it as HTTP/1.1; that handler then leaves, and so does this one.
   */
  private static final class NoH2cUpgrade extends ChannelInboundHandlerAdapter {

    private static final AsciiString H2C = AsciiString.cached("h2c");
    private static final AsciiString HTTP2_SETTINGS = AsciiString.cached("http2-settings");

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
      if (message instanceof HttpRequest request) {
        var headers = request.headers();
        if (headers.containsValue(HttpHeaderNames.UPGRADE, H2C, true)) {
          headers.remove(HttpHeaderNames.UPGRADE);
          headers.remove(HTTP2_SETTINGS);
        }
        ctx.pipeline().remove(this);
      }
      ctx.fireChannelRead(message);
    }
  }

  private void swap(ChannelPipeline pipeline, HttpServerOptions options, OpenConnection open) {
    var decoder = pipeline.get(DECODER);
    if (decoder != null && !(decoder instanceof StrictRequestDecoder)) {
      pipeline.replace(DECODER, DECODER, new StrictRequestDecoder(options, headTimeoutNanos, bodyTimeoutNanos));
      // behind the codec: it sees each decoded request head come in and each answer's end go out unencoded
      if (pipeline.get(ENCODER) != null && pipeline.get(OPEN_CONNECTION) == null) {
        pipeline.addAfter(ENCODER, OPEN_CONNECTION, open);
      }
    }
  }
}
