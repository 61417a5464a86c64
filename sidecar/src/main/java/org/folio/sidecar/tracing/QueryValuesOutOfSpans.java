package org.folio.sidecar.tracing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;
import jakarta.inject.Singleton;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Keeps the values of a URL's query out of every span, as they are kept out of the sidecar's logs: a query may
 * carry a token or a patron's name ({@code ?token=...}), and spans leave the pod for a collector. Quarkus' HTTP
 * instrumentation records the query whole ({@code url.query}, {@code url.full}; {@code http.target} and
 * {@code http.url} in the older conventions); this processor, which Quarkus adds to the tracer as it adds every
 * {@code SpanProcessor} bean, rewrites them as each span starts to the parameter names alone ({@code token&limit}).
 * An attribute cannot be removed from a started span, only set again, hence names rather than nothing.
 */
@Singleton
public class QueryValuesOutOfSpans implements SpanProcessor {

  private static final AttributeKey<String> QUERY = AttributeKey.stringKey("url.query");
  private static final List<AttributeKey<String>> WITH_QUERY = List.of(AttributeKey.stringKey("url.full"),
    AttributeKey.stringKey("http.target"), AttributeKey.stringKey("http.url"));

  @Override
  public void onStart(Context parentContext, ReadWriteSpan span) {
    var query = span.getAttribute(QUERY);
    if (query != null) {
      span.setAttribute(QUERY, parameterNames(query));
    }
    for (var key : WITH_QUERY) {
      var value = span.getAttribute(key);
      var rewritten = value == null ? null : withoutQueryValues(value);
      if (rewritten != null) {
        span.setAttribute(key, rewritten);
      }
    }
  }

  @Override
  public boolean isStartRequired() {
    return true;
  }

  @Override
  public void onEnd(ReadableSpan span) {
  }

  @Override
  public boolean isEndRequired() {
    return false;
  }

  /** A URL or request target with its query reduced to the parameter names; null when it has no query. */
  static @Nullable String withoutQueryValues(String target) {
    int query = target.indexOf('?');
    if (query < 0) {
      return null;
    }
    int fragment = target.indexOf('#', query);
    var names = parameterNames(target.substring(query + 1, fragment < 0 ? target.length() : fragment));
    return target.substring(0, query) + (names.isEmpty() ? "" : "?" + names);
  }

  /** {@code token=abc&limit=5&flag} is {@code token&limit&flag}. */
  static String parameterNames(String query) {
    var names = new StringBuilder();
    for (int start = 0; start <= query.length();) {
      int end = query.indexOf('&', start);
      if (end < 0) {
        end = query.length();
      }
      int equals = query.indexOf('=', start);
      var name = query.substring(start, equals < 0 || equals > end ? end : equals);
      if (!name.isEmpty()) {
        names.append(names.isEmpty() ? "" : "&").append(name);
      }
      start = end + 1;
    }
    return names.toString();
  }
}
