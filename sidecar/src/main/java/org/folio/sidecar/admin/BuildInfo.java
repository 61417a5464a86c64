package org.folio.sidecar.admin;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.quarkus.runtime.Quarkus;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.folio.sidecar.config.ModuleConfig;
import org.folio.sidecar.edge.Drain;
import org.folio.sidecar.health.OperatorDrain;

/**
 * What is running, as Envoy's {@code /server_info}: the sidecar's version and build (Quarkus, Java), the module it
 * serves, since when, and its state. The same version is the metric {@code sidecar_build_info{version,quarkus,java} 1},
 * so a dashboard can tell which pods run which build.
 */
@Singleton
public class BuildInfo {

  private final String version;
  private final String quarkus;
  private final String java;
  private final ModuleConfig module;
  private final Clock clock;
  private final Instant started;
  private final Drain drain;
  private final OperatorDrain operatorDrain;
  private final AdminAuth auth;

  BuildInfo(@ConfigProperty(name = "quarkus.application.version") Optional<String> version, ModuleConfig module,
    Clock clock, Drain drain, OperatorDrain operatorDrain, AdminAuth auth, MeterRegistry registry) {
    this.version = version.orElse("unknown");
    this.quarkus = Optional.ofNullable(Quarkus.class.getPackage().getImplementationVersion()).orElse("unknown");
    this.java = Runtime.version().toString();
    this.module = module;
    this.clock = clock;
    this.started = clock.instant();
    this.drain = drain;
    this.operatorDrain = operatorDrain;
    this.auth = auth;
    Gauge.builder("sidecar.build.info", () -> 1).strongReference(true)
      .tags(Tags.of("version", this.version, "quarkus", quarkus, "java", java))
      .description("always 1; the labels name the running build").register(registry);
  }

  AdminAnswer describe(HttpServerRequest request) {
    var state = drain.draining() ? "stopping" : operatorDrain.failed() ? "failed_by_operator" : "live";
    return AdminAnswer.of(new JsonObject()
      .put("version", version).put("quarkus", quarkus).put("java", java)
      .put("module", module.name()).put("moduleVersion", module.version().orElse(null))
      .put("started", started.toString())
      .put("uptimeSeconds", Duration.between(started, clock.instant()).toSeconds())
      .put("state", state)
      .put("adminCredential", auth.credentialId()));
  }
}
