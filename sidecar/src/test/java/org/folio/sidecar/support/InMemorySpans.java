package org.folio.sidecar.support;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The spans of a test run, kept in memory: Quarkus exports to every {@code SpanExporter} bean. Unused (and cost
 * free) while tracing is off, as it is in every test that does not turn it on.
 */
@ApplicationScoped
public class InMemorySpans {

  @Produces
  @Singleton
  InMemorySpanExporter exporter() {
    return InMemorySpanExporter.create();
  }
}
