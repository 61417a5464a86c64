package org.folio.sidecar.edge;

import java.util.List;
import java.util.stream.Stream;

/**
 * The HTTP/1.1 vectors of the edge, each with the outcome the sidecar must give: one list that
 * {@link RequestFramingTest} (the smuggling vectors) and {@link EdgeVectorsTest} (all of them, beside nginx) read.
 * Each request names the module's system interface or its public endpoint, so no token is needed to reach the
 * module: whatever stops a vector is the edge, not authorization.
 */
final class EdgeVectors {

  /** A request that reaches the module if it is read as a second request on the connection. */
  static final String SMUGGLED = "GET /public/info?smuggled HTTP/1.1\r\nHost: x\r\nx-okapi-tenant: alpha\r\n\r\n";

  /** What the sidecar must do with a vector: its status, whether it closes, what the module receives. */
  enum Outcome {
    /** 400, the connection closed, nothing reaches the module. */
    REFUSED_AND_CLOSED(400, true),
    /** 400 in upstream's error format on a kept connection, nothing reaches the module. */
    REFUSED(400, false),
    /** Forwarded (200), the connection kept. */
    FORWARDED(200, false);

    final int status;
    final boolean closed;

    Outcome(int status, boolean closed) {
      this.status = status;
      this.closed = closed;
    }
  }

  /** One row: a name, the raw bytes, the expected outcome, what the module must receive when it is forwarded. */
  record Vector(String name, String request, Outcome outcome, List<String> received, Group group) {

    @Override
    public String toString() {
      return name;
    }
  }

  /** Which issue brought the vector in. */
  enum Group {
    SMUGGLING, TARGET, OBS_FOLD, METHOD_OVERRIDE, CONTROL
  }

  private EdgeVectors() {
  }

  static List<Vector> all() {
    return Stream.of(smuggling(), targets(), obsFolds(), methodOverrides(), controls()).flatMap(List::stream).toList();
  }

  /** Issue 27: framing two parsers could read two ways (RFC 9112 sections 6.1 and 6.3). */
  static List<Vector> smuggling() {
    return List.of(
      framing("content-length and transfer-encoding (CL.TE)",
        "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + SMUGGLED),
      framing("transfer-encoding and content-length (TE.CL)",
        "Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n5e\r\n" + SMUGGLED + "\r\n0\r\n\r\n"),
      framing("xchunked with content-length",
        "Transfer-Encoding: xchunked\r\nContent-Length: 4\r\n\r\nabcd" + SMUGGLED),
      framing("chunked, identity with content-length",
        "Transfer-Encoding: chunked, identity\r\nContent-Length: 4\r\n\r\nabcd" + SMUGGLED),
      framing("upper-case CHUNKED with content-length",
        "Transfer-Encoding: CHUNKED\r\nContent-Length: 4\r\n\r\n0\r\n\r\n" + SMUGGLED),
      framing("content-length and transfer-encoding split by bare LF",
        "Content-Length: 4\nTransfer-Encoding: chunked\n\n0\r\n\r\n" + SMUGGLED),
      framing("unknown coding xchunked", "Transfer-Encoding: xchunked\r\n\r\n0\r\n\r\n" + SMUGGLED),
      framing("chunked, identity", "Transfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n" + SMUGGLED),
      framing("two transfer-encoding lines",
        "Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n0\r\n\r\n" + SMUGGLED),
      framing("transfer-encoding with a space before the colon",
        "Transfer-Encoding : chunked\r\nContent-Length: 4\r\n\r\n0\r\n\r\n" + SMUGGLED),
      framing("transfer-encoding folded onto the next line, with content-length",
        "Transfer-Encoding:\r\n chunked\r\nContent-Length: 4\r\n\r\n0\r\n\r\n" + SMUGGLED),
      framing("transfer-encoding with a vertical tab", "Transfer-Encoding: \u000bchunked\r\n\r\n0\r\n\r\n" + SMUGGLED),
      framing("NUL in a header value", "X-Note: a\u0000b\r\nContent-Length: 0\r\n\r\n" + SMUGGLED),
      framing("control character in a header value", "X-Note: a\u0001b\r\nContent-Length: 0\r\n\r\n" + SMUGGLED),
      framing("bare CR in a header value", "X-Note: a\rb\r\nContent-Length: 0\r\n\r\n" + SMUGGLED),
      framing("header name with a space", "X Note: b\r\nContent-Length: 0\r\n\r\n" + SMUGGLED),
      new Vector("transfer-encoding in HTTP/1.0", "POST /_/tenant?v=http10 HTTP/1.0\r\nHost: x\r\n"
        + "x-okapi-tenant: alpha\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + SMUGGLED,
        Outcome.REFUSED_AND_CLOSED, List.of(), Group.SMUGGLING));
  }

  /** Issue 34: request targets that are not a path (RFC 9112 section 3.2): one target must have one meaning. */
  static List<Vector> targets() {
    return List.of(
      target("absolute-form http", "GET http://evil.example/public/info HTTP/1.1"),
      target("absolute-form https", "GET https://evil.example/public/info HTTP/1.1"),
      target("absolute-form HTTP in upper case", "GET HTTP://evil.example/public/info HTTP/1.1"),
      target("absolute-form ftp", "GET ftp://evil.example/public/info HTTP/1.1"),
      target("absolute-form of a made-up scheme", "GET weird+scheme://evil.example/public/info HTTP/1.1"),
      target("absolute-form with the path after a ?", "GET http://evil.example?/public/info HTTP/1.1"),
      target("absolute-form with user info", "GET http://user@evil.example/public/info HTTP/1.1"),
      target("scheme without authority", "GET weird:/public/info HTTP/1.1"),
      target("authority-form (CONNECT)", "CONNECT evil.example:443 HTTP/1.1"),
      target("asterisk-form (OPTIONS *)", "OPTIONS * HTTP/1.1"),
      new Vector("network-path reference //host/path", "GET //evil.example/public/info HTTP/1.1\r\nHost: x\r\n"
        + "x-okapi-tenant: alpha\r\n\r\n", Outcome.REFUSED, List.of(), Group.TARGET));
  }

  /** Issue 34: a header continued on the next line (obs-fold, RFC 9112 section 5.2), which Netty joins. */
  static List<Vector> obsFolds() {
    return List.of(
      new Vector("obs-fold on transfer-encoding", "POST /_/tenant?v=foldte HTTP/1.1\r\nHost: x\r\n"
        + "x-okapi-tenant: alpha\r\nTransfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n" + SMUGGLED,
        Outcome.REFUSED_AND_CLOSED, List.of(), Group.OBS_FOLD),
      new Vector("obs-fold on x-okapi-token", "GET /public/info?v=foldtoken HTTP/1.1\r\nHost: x\r\n"
        + "x-okapi-tenant: alpha\r\nx-okapi-token: eyJhbGciOiJSUzI1NiJ9.e30\r\n .c2ln\r\n\r\n",
        Outcome.REFUSED_AND_CLOSED, List.of(), Group.OBS_FOLD),
      new Vector("obs-fold by a tab on any header", "GET /public/info?v=foldtab HTTP/1.1\r\nHost: x\r\n"
        + "x-okapi-tenant: alpha\r\nX-Note: a\r\n\tb\r\n\r\n", Outcome.REFUSED_AND_CLOSED, List.of(), Group.OBS_FOLD),
      new Vector("obs-fold on the first header line", "GET /public/info?v=foldfirst HTTP/1.1\r\n x-okapi-tenant: alpha"
        + "\r\nHost: x\r\n\r\n", Outcome.REFUSED_AND_CLOSED, List.of(), Group.OBS_FOLD));
  }

  /** Issue 34: ways to ask a module's framework to run another method than the one on the request line. */
  static List<Vector> methodOverrides() {
    return List.of(
      override("X-HTTP-Method-Override header", "", "X-HTTP-Method-Override: DELETE\r\n"),
      override("X-HTTP-Method header", "", "X-HTTP-Method: DELETE\r\n"),
      override("X-Method-Override header", "", "X-Method-Override: DELETE\r\n"),
      override("x-http-method-override in lower case", "", "x-http-method-override: PUT\r\n"),
      override("_method query parameter", "&_method=DELETE", ""),
      override("_method query parameter, percent-encoded", "&%5Fmethod=DELETE", ""),
      new Vector("_method query parameter alone", "POST /_/tenant?_method=DELETE HTTP/1.1\r\nHost: x\r\n"
        + "x-okapi-tenant: alpha\r\nContent-Length: 0\r\n\r\n", Outcome.REFUSED, List.of(), Group.METHOD_OVERRIDE));
  }

  /** What the edge must still pass: the rows that show a refusal is about the vector, not the endpoint. */
  static List<Vector> controls() {
    return List.of(
      new Vector("ordinary GET of a public endpoint", "GET /public/info?v=control HTTP/1.1\r\nHost: x\r\n"
        + "x-okapi-tenant: alpha\r\n\r\n", Outcome.FORWARDED, List.of("GET /public/info?v=control"), Group.CONTROL),
      new Vector("ordinary chunked POST", "POST /_/tenant?v=chunked HTTP/1.1\r\nHost: x\r\nx-okapi-tenant: alpha\r\n"
        + "Transfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n2\r\n{}\r\n0\r\n\r\n", Outcome.FORWARDED,
        List.of("POST /_/tenant?v=chunked"), Group.CONTROL),
      new Vector("a query parameter named like _method but longer", "POST /_/tenant?v=x&_methods=1 HTTP/1.1\r\n"
        + "Host: x\r\nx-okapi-tenant: alpha\r\nContent-Length: 0\r\n\r\n", Outcome.FORWARDED,
        List.of("POST /_/tenant?v=x&_methods=1"), Group.CONTROL));
  }

  private static Vector framing(String name, String rest) {
    var marker = name.replaceAll("[^a-zA-Z]", "");
    return new Vector(name, "POST /_/tenant?v=" + marker + " HTTP/1.1\r\nHost: x\r\nx-okapi-tenant: alpha\r\n" + rest,
      Outcome.REFUSED_AND_CLOSED, List.of(), Group.SMUGGLING);
  }

  private static Vector target(String name, String requestLine) {
    return new Vector(name, requestLine + "\r\nHost: x\r\nx-okapi-tenant: alpha\r\n\r\n", Outcome.REFUSED_AND_CLOSED,
      List.of(), Group.TARGET);
  }

  private static Vector override(String name, String query, String header) {
    return new Vector(name, "POST /_/tenant?v=override" + query + " HTTP/1.1\r\nHost: x\r\nx-okapi-tenant: alpha\r\n"
      + header + "Content-Length: 0\r\n\r\n", Outcome.REFUSED, List.of(), Group.METHOD_OVERRIDE);
  }
}
