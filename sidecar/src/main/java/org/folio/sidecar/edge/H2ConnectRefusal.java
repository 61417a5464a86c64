package org.folio.sidecar.edge;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameListenerDecorator;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;

/**
 * {@code CONNECT} over HTTP/2 answered 400 on its own stream, as HTTP/1.1's decoder refuses its authority-form.
 * Vert.x accepts a CONNECT stream without {@code :path} (RFC 9113 section 8.5) and hands it to Quarkus, whose root
 * handler fails on the missing path and so ends the whole connection (GOAWAY INTERNAL_ERROR); the refusal has to
 * come before Vert.x makes a request of the stream, so it sits in front of Vert.x's frame listener (and moves in
 * front of the one Vert.x puts in place at the caller's first SETTINGS). The other streams are not touched.
 */
final class H2ConnectRefusal extends Http2FrameListenerDecorator {

  private static final Http2Headers REFUSED = new DefaultHttp2Headers(false)
    .status(HttpResponseStatus.BAD_REQUEST.codeAsText())
    .setInt("content-length", 0);

  private final Http2ConnectionDecoder decoder;
  private final Http2ConnectionEncoder encoder;

  private H2ConnectRefusal(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder) {
    super(decoder.frameListener());
    this.decoder = decoder;
    this.encoder = encoder;
  }

  /** Puts the refusal in front of the HTTP/2 handler of the pipeline, if it has one and it is not there yet. */
  static void install(ChannelPipeline pipeline) {
    var handler = pipeline.get(Http2ConnectionHandler.class);
    if (handler != null) {
      inFront(handler.decoder(), handler.encoder());
    }
  }

  private static void inFront(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder) {
    if (!(decoder.frameListener() instanceof H2ConnectRefusal)) {
      decoder.frameListener(new H2ConnectRefusal(decoder, encoder));
    }
  }

  @Override
  public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) throws Http2Exception {
    super.onSettingsRead(ctx, settings);
    // Vert.x hands the decoder to its connection object when the caller's first SETTINGS is read: stay in front
    inFront(decoder, encoder);
  }

  @Override
  public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
    boolean endOfStream) throws Http2Exception {
    if (isConnect(headers)) {
      refuse(ctx, streamId, endOfStream);
    } else {
      super.onHeadersRead(ctx, streamId, headers, padding, endOfStream);
    }
  }

  @Override
  public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int streamDependency,
    short weight, boolean exclusive, int padding, boolean endOfStream) throws Http2Exception {
    if (isConnect(headers)) {
      refuse(ctx, streamId, endOfStream);
    } else {
      super.onHeadersRead(ctx, streamId, headers, streamDependency, weight, exclusive, padding, endOfStream);
    }
  }

  private static boolean isConnect(Http2Headers headers) {
    var method = headers.method();
    return method != null && HttpMethod.CONNECT.asciiName().contentEquals(method);
  }

  private void refuse(ChannelHandlerContext ctx, int streamId, boolean endOfStream) {
    var unused = encoder.writeHeaders(ctx, streamId, REFUSED, 0, true, ctx.newPromise());
    if (!endOfStream) {
      // the answer came before the request's end (RFC 9113 section 8.1): the rest of it is not wanted
      unused = encoder.writeRstStream(ctx, streamId, Http2Error.NO_ERROR.code(), ctx.newPromise());
    }
    ctx.flush();
  }
}
