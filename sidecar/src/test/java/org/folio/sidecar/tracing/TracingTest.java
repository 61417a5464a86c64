package org.folio.sidecar.tracing;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import org.folio.sidecar.support.SidecarTestResource;
import org.folio.sidecar.testkit.TestPlatform;
import org.junit.jupiter.api.Test;

/**
 * With tracing on (OTEL_SDK_DISABLED=false), one request through the sidecar is one trace that continues the
 * caller's: the sidecar's server span is the child of the caller's span, Keycloak's decision (a cache miss) and the
 * forward to the module are its children, and the module receives a traceparent whose parent is the forward's span.
 */
@QuarkusTest
@WithTestResource(value = SidecarTestResource.class, parallel = true, initArgs = {
  @ResourceArg(name = "quarkus.otel.sdk.disabled", value = "false"),
  @ResourceArg(name = "quarkus.otel.bsp.schedule.delay", value = "50ms"),
  // no collector in the tests: the in-memory exporter (support/InMemorySpans) gets the spans
  @ResourceArg(name = "quarkus.otel.exporter.otlp.traces.endpoint", value = "http://127.0.0.1:9")})
class TracingTest {

  private static final String CALLER_SPAN = "b7ad6b7169203331";

  private final TestPlatform platform = TestPlatform.get();

  @Inject
  InMemorySpanExporter spans;

  @Test
  void theKubeletsProbesAreNotTraced() {
    for (var path : List.of("/admin/health", "/admin/health/ready", "/admin/health/live")) {
      given().header("traceparent", "00-" + newTraceId() + "-" + CALLER_SPAN + "-01").get(path);
    }
    // a request after them: once its span is exported, theirs would have been
    var traceId = newTraceId();
    given().header("traceparent", "00-" + traceId + "-" + CALLER_SPAN + "-01").get("/nowhere");
    await().atMost(Duration.ofSeconds(30)).until(() -> spansOf(traceId), found -> !found.isEmpty());

    assertThat(spans.getFinishedSpanItems()).noneMatch(span -> span.getName().contains("/admin/health")
      || String.valueOf(span.getAttributes().get(AttributeKey.stringKey("url.path"))).startsWith("/admin/health"));
  }

  @Test
  void oneRequestIsOneTraceContinuingTheCallers() {
    platform.resetModule();
    var alpha = platform.alpha();
    var token = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");

    var traceId = sendTraced(Map.of("x-okapi-tenant", "alpha", "x-okapi-token", token), "/items/42").getLast();

    var trace = await().atMost(Duration.ofSeconds(30)).until(() -> spansOf(traceId),
      found -> found.stream().anyMatch(span -> span.getKind() == SpanKind.SERVER)
        && found.stream().anyMatch(span -> Tracing.OPERATION_FORWARD.equals(span.getName())));
    System.out.println("one request's spans (name, kind, span id, parent id):" + trace.stream()
      .map(span -> "\n  " + span.getName() + ", " + span.getKind() + ", " + span.getSpanId() + ", "
        + span.getParentSpanId())
      .collect(Collectors.joining()));

    var server = only(trace, SpanKind.SERVER);
    assertThat(server.getName()).isEqualTo("GET /items/{id}");
    assertThat(server.getParentSpanId()).isEqualTo(CALLER_SPAN);
    var decision = named(trace, Tracing.OPERATION_DECISION);
    assertThat(decision.getKind()).isEqualTo(SpanKind.CLIENT);
    assertThat(decision.getParentSpanId()).isEqualTo(server.getSpanId());
    var forward = named(trace, Tracing.OPERATION_FORWARD);
    assertThat(forward.getKind()).isEqualTo(SpanKind.CLIENT);
    assertThat(forward.getParentSpanId()).isEqualTo(server.getSpanId());
    assertThat(forward.getStartEpochNanos()).isGreaterThanOrEqualTo(decision.getEndEpochNanos());

    // the module gets the sidecar's span as its parent, not the caller's
    var received = platform.module().findAll(getRequestedFor(urlEqualTo("/items/42")));
    assertThat(received).hasSize(1);
    assertThat(received.get(0).getHeaders().getHeader("traceparent").values())
      .containsExactly("00-" + traceId + "-" + forward.getSpanId() + "-01");
  }

  /**
   * Issue 43 row 9: spans carried the caller's whole query ({@code url.query}, {@code url.full}: a {@code token=}
   * parameter in the exported bytes) though the sidecar keeps queries out of its logs, and the module received two
   * {@code baggage} headers (the caller's, forwarded, and the client span's). Now spans keep the parameter names
   * only, and the module gets the one {@code baggage} the client span writes.
   */
  @Test
  void spansCarryNoQueryValuesAndTheModuleGetsOneBaggage() {
    platform.resetModule();
    var alpha = platform.alpha();
    var token = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
    var secret = "query-secret-" + UUID.randomUUID();
    var path = "/items/43?token=" + secret + "&limit=5";

    var traceId = sendTraced(Map.of("x-okapi-tenant", "alpha", "x-okapi-token", token, "baggage", "origin=alpha"),
      path).getLast();

    var trace = await().atMost(Duration.ofSeconds(30)).until(() -> spansOf(traceId),
      found -> found.stream().anyMatch(span -> span.getKind() == SpanKind.SERVER)
        && found.stream().anyMatch(span -> Tracing.OPERATION_FORWARD.equals(span.getName())));
    trace.forEach(span -> span.getAttributes().forEach((key, value) -> assertThat(String.valueOf(value))
      .as("%s of span %s", key, span.getName()).doesNotContain(secret)));
    var server = only(trace, SpanKind.SERVER);
    System.out.println("server span's attributes: " + server.getAttributes());
    assertThat(server.getAttributes().get(AttributeKey.stringKey("url.query"))).isEqualTo("token&limit");
    var forward = named(trace, Tracing.OPERATION_FORWARD);
    System.out.println("forward span's attributes: " + forward.getAttributes());
    assertThat(forward.getAttributes().get(AttributeKey.stringKey("url.full"))).endsWith("/items/43?token&limit");

    // the module gets its query whole, and one baggage with the caller's entry
    var received = platform.module().findAll(getRequestedFor(urlPathEqualTo("/items/43")));
    assertThat(received).hasSize(1);
    assertThat(received.get(0).getUrl()).contains("token=" + secret);
    assertThat(received.get(0).getHeaders().getHeader("baggage").values()).singleElement().asString()
      .contains("origin=alpha");
  }

  @Test
  void aCachedDecisionAsksKeycloakNothingAndATokenTheSidecarObtainsIsItsOwnSpan() {
    platform.resetModule();
    var alpha = platform.alpha();
    var token = platform.tokens().login(alpha, alpha.allowed()).getString("access_token");
    var user = Map.of("x-okapi-tenant", "alpha", "x-okapi-token", token);
    sendTraced(user, "/items/7");

    var cachedTrace = newTraceId();
    given().headers(user).header("traceparent", "00-" + cachedTrace + "-" + CALLER_SPAN + "-01")
      .get("/items/7").then().statusCode(200);
    // egress: the module's call to another module, with the tenant's service token the sidecar obtains
    var egressTraces = sendTraced(Map.of("x-okapi-tenant", "alpha"), "/source-storage/records/1");
    var egressTrace = egressTraces.getLast();

    var cached = await().atMost(Duration.ofSeconds(30)).until(() -> spansOf(cachedTrace),
      found -> found.stream().anyMatch(span -> Tracing.OPERATION_FORWARD.equals(span.getName()))
        && found.stream().anyMatch(span -> span.getKind() == SpanKind.SERVER));
    assertThat(cached).extracting(SpanData::getName).doesNotContain(Tracing.OPERATION_DECISION);
    var egress = await().atMost(Duration.ofSeconds(30)).until(() -> spansOf(egressTrace),
      found -> found.stream().anyMatch(span -> Tracing.OPERATION_FORWARD.equals(span.getName()))
        && found.stream().anyMatch(span -> span.getKind() == SpanKind.SERVER));
    System.out.println("egress spans (name, kind, span id, parent id):" + egress.stream()
      .map(span -> "\n  " + span.getName() + ", " + span.getKind() + ", " + span.getSpanId() + ", "
        + span.getParentSpanId())
      .collect(Collectors.joining()));
    var server = only(egress, SpanKind.SERVER);
    assertThat(server.getName()).isEqualTo("GET /source-storage/records/{id}");
    assertThat(named(egress, Tracing.OPERATION_FORWARD).getParentSpanId()).isEqualTo(server.getSpanId());
    // the tenant's service token, obtained for the tenant's first egress call (the answered one, or one that
    // outlasted a busy machine's timeout and was tried again): a child of that request's span
    var grant = await().atMost(Duration.ofSeconds(30)).until(() -> egressTraces.stream().flatMap(id -> spansOf(id)
      .stream()).filter(span -> Tracing.OPERATION_TOKEN.equals(span.getName())).findFirst(), Optional::isPresent).get();
    assertThat(only(spansOf(grant.getTraceId()), SpanKind.SERVER).getSpanId()).isEqualTo(grant.getParentSpanId());
  }

  /**
   * Sends a GET in a trace of its own until it is answered 200: on a busy machine a cold Keycloak may outlast the
   * sidecar's decision timeout (503, not cached), and the next try is a new trace. The trace ids tried, the answered
   * one last.
   */
  private static List<String> sendTraced(Map<String, String> headers, String path) {
    var tried = new ArrayList<String>();
    await().atMost(Duration.ofSeconds(60)).until(() -> {
      var traceId = newTraceId();
      tried.add(traceId);
      int status = given().headers(headers).header("traceparent", "00-" + traceId + "-" + CALLER_SPAN + "-01")
        .get(path).statusCode();
      assertThat(status).isIn(200, 503);
      return status == 200;
    });
    return tried;
  }

  private static String newTraceId() {
    return UUID.randomUUID().toString().replace("-", "");
  }

  private List<SpanData> spansOf(String traceId) {
    return spans.getFinishedSpanItems().stream().filter(span -> traceId.equals(span.getTraceId())).toList();
  }

  private static SpanData only(List<SpanData> trace, SpanKind kind) {
    var matching = trace.stream().filter(span -> span.getKind() == kind).toList();
    assertThat(matching).as("%s spans of %s", kind, trace).hasSize(1);
    return matching.get(0);
  }

  private static SpanData named(List<SpanData> trace, String name) {
    var matching = trace.stream().filter(span -> name.equals(span.getName())).toList();
    assertThat(matching).as("spans named %s in %s", name, trace).hasSize(1);
    return matching.get(0);
  }
}
