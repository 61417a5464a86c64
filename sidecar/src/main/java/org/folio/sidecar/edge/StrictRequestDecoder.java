package org.folio.sidecar.edge;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.impl.VertxHttpRequestDecoder;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Vert.x's HTTP/1 request decoder with the things it lacks at an edge:
 *
 * <p>Framing (RFC 9112 sections 6.1 and 6.3): Netty frames a request with both {@code Content-Length} and
 * {@code Transfer-Encoding: chunked} by the chunks and silently drops the length, and frames one with an unknown
 * coding by the length. A proxy in front that reads the same bytes the other way smuggles a request past it. Here
 * any request with both, with a transfer coding other than exactly {@code chunked}, or with one in HTTP/1.0 is
 * marked invalid: Vert.x answers such a request 400 with {@code Connection: close} and closes, and every byte
 * after it on the connection is dropped unread, so nothing behind it is ever parsed as a request.
 *
 * <p>One reading of the head: a header line continued on the next (obs-fold, RFC 9112 section 5.2), which Netty
 * joins to the line before ({@code Transfer-Encoding:} then {@code  chunked} is framed as chunked), and a request
 * target other than a path (absolute-form, whose authority overrides Host; {@code CONNECT}'s authority-form;
 * {@code OPTIONS *}) are refused the same way, as nginx refuses obs-fold. The sidecar is no forward proxy: what it
 * routes and authorizes is the path, so the path is all a target may be.
 *
 * <p>Time: a request head must be complete within the head timeout of its first byte (or of the connection's
 * start), and a body may not pause longer than the body timeout while the sidecar wants to read it.
 */
final class StrictRequestDecoder extends VertxHttpRequestDecoder {

  private final long headTimeoutNanos;
  private final long bodyTimeoutNanos;
  private boolean inBody;
  private boolean lengthDropped;
  private boolean refused;
  /** Netty has consumed the start of the current head (it consumes whole lines): the buffer begins a header line. */
  private boolean inHead;
  private boolean folded;
  private long lastBodyRead;
  private @Nullable ScheduledFuture<?> headTimer;
  private @Nullable ScheduledFuture<?> bodyTimer;

  StrictRequestDecoder(HttpServerOptions options, long headTimeoutNanos, long bodyTimeoutNanos) {
    super(options);
    this.headTimeoutNanos = headTimeoutNanos;
    this.bodyTimeoutNanos = bodyTimeoutNanos;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
    super.handlerAdded(ctx);
    armHeadTimer(ctx);
  }

  @Override
  protected void handlerRemoved0(ChannelHandlerContext ctx) throws Exception {
    cancelTimers();
    // an h2c upgrade removes this decoder once the upgrade request is read, with Vert.x's HTTP/2 handler behind it
    H2ConnectRefusal.install(ctx.pipeline());
    super.handlerRemoved0(ctx);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    cancelTimers();
    super.channelInactive(ctx);
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf buffer, List<Object> out) throws Exception {
    if (refused) {
      buffer.skipBytes(buffer.readableBytes());
      return;
    }
    if (inBody) {
      lastBodyRead = System.nanoTime();
    } else if (headTimer == null && buffer.isReadable()) {
      armHeadTimer(ctx);
    }
    if (!inBody && !folded) {
      folded = foldIn(buffer, inHead);
    }
    int from = out.size();
    int before = buffer.readerIndex();
    super.decode(ctx, buffer, out);
    boolean started = false;
    for (int i = from; i < out.size(); i++) {
      var message = out.get(i);
      if (message instanceof HttpRequest request) {
        started = true;
        if (headTimer != null) {
          headTimer.cancel(false);
          headTimer = null;
        }
        var problem = request.decoderResult().isSuccess() ? problem(request, lengthDropped, folded) : null;
        lengthDropped = false;
        folded = false;
        inHead = false;
        if (problem != null) {
          refuse(request, problem, out, i + 1);
          buffer.skipBytes(buffer.readableBytes());
          return;
        }
        inBody = true;
        lastBodyRead = System.nanoTime();
      }
      if (message instanceof LastHttpContent) {
        inBody = false;
      }
    }
    if (!started && !inBody && buffer.readerIndex() > before) {
      inHead = true;
    }
    if (inBody && bodyTimer == null) {
      armBodyTimer(ctx, bodyTimeoutNanos);
    }
  }

  /**
   * Whether the head bytes at the start of {@code buffer} continue a header line on the next one (a line that
   * starts with a space or tab). {@code atHeaderLine}: the buffer starts at a header line, Netty having consumed
   * the request line and any header lines before; otherwise it starts at the request line, after any blank lines
   * or whitespace Netty skips before one. The scan ends at the blank line that ends the head.
   */
  static boolean foldIn(ByteBuf buffer, boolean atHeaderLine) {
    int at = buffer.readerIndex();
    int end = buffer.writerIndex();
    if (!atHeaderLine) {
      while (at < end && skipped((char) (buffer.getByte(at) & 0xff))) {
        at++;
      }
      // the request line
      while (at < end && buffer.getByte(at) != '\n') {
        at++;
      }
      at++;
    }
    boolean lineStart = true;
    for (; at < end; at++) {
      byte b = buffer.getByte(at);
      if (lineStart) {
        if (b == ' ' || b == '\t') {
          return true;
        }
        if (b == '\n' || (b == '\r' && at + 1 < end && buffer.getByte(at + 1) == '\n')) {
          return false;
        }
      }
      lineStart = b == '\n';
    }
    return false;
  }

  /** Netty calls this for a chunked request that also has a length, after dropping the length; note that it did. */
  @Override
  protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
    lengthDropped = true;
    super.handleTransferEncodingChunkedWithContentLength(message);
  }

  // what Netty skips before a request line
  private static boolean skipped(char c) {
    return Character.isISOControl(c) || Character.isWhitespace(c);
  }

  /** Why the request's head has more than one reading, or null when it has exactly one. */
  static @Nullable String problem(HttpRequest request, boolean lengthDropped, boolean folded) {
    if (folded) {
      return "header line folded onto the next (obs-fold)";
    }
    var target = request.uri();
    if (target.isEmpty() || target.charAt(0) != '/') {
      return "request target is not a path (absolute-form, authority-form or *)";
    }
    return framingProblem(request, lengthDropped);
  }

  /** Why the request's framing is ambiguous, or null when it has exactly one reading. */
  static @Nullable String framingProblem(HttpRequest request, boolean lengthDropped) {
    var headers = request.headers();
    var codings = headers.getAll(HttpHeaderNames.TRANSFER_ENCODING);
    if (codings.isEmpty()) {
      return null;
    }
    if (lengthDropped || headers.contains(HttpHeaderNames.CONTENT_LENGTH)) {
      return "both Content-Length and Transfer-Encoding";
    }
    if (HttpVersion.HTTP_1_0.equals(request.protocolVersion())) {
      return "Transfer-Encoding in HTTP/1.0";
    }
    if (codings.size() > 1 || !"chunked".equals(codings.get(0).trim().toLowerCase(Locale.ROOT))) {
      return "transfer coding other than chunked";
    }
    return null;
  }

  private void refuse(HttpRequest request, String problem, List<Object> out, int after) {
    refused = true;
    folded = false;
    inBody = false;
    cancelTimers();
    request.setDecoderResult(DecoderResult.failure(new IllegalArgumentException("Invalid request: " + problem)));
    // whatever the decoder read past the head belongs to a request no one can frame: it never leaves here
    while (out.size() > after) {
      ReferenceCountUtil.release(out.remove(out.size() - 1));
    }
  }

  private void armHeadTimer(ChannelHandlerContext ctx) {
    headTimer = ctx.executor().schedule(() -> {
      headTimer = null;
      var unused = ctx.close();
    }, headTimeoutNanos, TimeUnit.NANOSECONDS);
  }

  private void armBodyTimer(ChannelHandlerContext ctx, long delayNanos) {
    bodyTimer = ctx.executor().schedule(() -> {
      bodyTimer = null;
      if (!inBody) {
        return;
      }
      long now = System.nanoTime();
      if (!ctx.channel().config().isAutoRead()) {
        // the sidecar is holding the body back (a decision, a slow module): the client is not the one pausing
        lastBodyRead = now;
      }
      long idle = now - lastBodyRead;
      if (idle >= bodyTimeoutNanos) {
        var unused = ctx.close();
      } else {
        armBodyTimer(ctx, bodyTimeoutNanos - idle);
      }
    }, delayNanos, TimeUnit.NANOSECONDS);
  }

  private void cancelTimers() {
    if (headTimer != null) {
      headTimer.cancel(false);
      headTimer = null;
    }
    if (bodyTimer != null) {
      bodyTimer.cancel(false);
      bodyTimer = null;
    }
  }
}
