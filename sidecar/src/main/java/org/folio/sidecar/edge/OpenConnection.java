package org.folio.sidecar.edge;

import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * One accepted connection as the last phase of a stop sees it: whether a request on it still awaits its answer.
 * On an HTTP/1 connection it sits behind Vert.x's codec, before its handler, and counts request heads in and
 * final answers out. Asked to {@link #closeWhenQuiet close}, it closes the connection only between requests, once
 * no request has been awaiting an answer for the grace; a connection still sending a request, or waiting for its
 * answer, is left to finish (its answer carries {@code Connection: close}). HTTP/2 connections are Quarkus' (it
 * sends GOAWAY), and are left alone.
 */
final class OpenConnection extends ChannelDuplexHandler {

  private final Channel channel;
  private @Nullable ChannelHandlerContext context;
  // event loop only
  private int unanswered;
  private long quietSince = System.nanoTime();
  // written by the stopping thread, read on the event loop
  private volatile long graceNanos = -1;

  OpenConnection(Channel channel) {
    this.channel = channel;
  }

  Channel channel() {
    return channel;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    context = ctx;
  }

  /** On the event loop, once the connection is registered with it: a stop may have come first. */
  void registered() {
    check();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object message) {
    if (message instanceof HttpRequest) {
      unanswered++;
    }
    ctx.fireChannelRead(message);
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) {
    if (message instanceof LastHttpContent && !informational(message)) {
      var written = promise.unvoid();
      written.addListener(done -> answered());
      var unused = ctx.write(message, written);
    } else {
      var unused = ctx.write(message, promise);
    }
  }

  private static boolean informational(Object message) {
    return message instanceof HttpResponse response && response.status().codeClass() == HttpStatusClass.INFORMATIONAL;
  }

  private void answered() {
    unanswered = Math.max(0, unanswered - 1);
    quietSince = System.nanoTime();
    check();
  }

  /** From any thread: from now on, close the connection once it has been between requests for {@code grace}. */
  void closeWhenQuiet(long grace) {
    graceNanos = grace;
    // not yet registered: its registration calls registered()
    if (channel.isRegistered()) {
      channel.eventLoop().execute(this::check);
    }
  }

  private void check() {
    if (graceNanos < 0 || !channel.isActive() || unanswered > 0) {
      return;
    }
    var pipeline = channel.pipeline();
    if (context == null
      && (pipeline.get(Http2ConnectionHandler.class) != null || pipeline.get(HttpRequestDecoder.class) != null)) {
      return;
    }
    // with no context and no codec yet, no byte has come: quiet since the connection was accepted
    long quiet = System.nanoTime() - quietSince;
    if (quiet >= graceNanos) {
      var unused = channel.close();
    } else {
      var unused = channel.eventLoop().schedule(this::check, graceNanos - quiet, TimeUnit.NANOSECONDS);
    }
  }
}
