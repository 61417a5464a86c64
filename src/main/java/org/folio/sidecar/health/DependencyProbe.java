package org.folio.sidecar.health;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import org.folio.sidecar.config.ConfigValidator;
import org.folio.sidecar.config.KeycloakConfig;
import org.folio.sidecar.config.ModuleConfig;
import org.folio.sidecar.config.SidecarConfig;

/**
 * Probes the module's health path and Keycloak in the background, so readiness answers from memory instead of
 * adding two network calls to every probe.
 */
@Singleton
public class DependencyProbe {

  private final Vertx vertx;
  private final WebClient client;
  private final String moduleHealthUrl;
  private final String keycloakUrl;
  private final SidecarConfig config;
  private final long timeoutMillis;
  private volatile boolean moduleUp;
  private volatile boolean keycloakUp;
  private long timerId = -1;

  DependencyProbe(Vertx vertx, @Named("keycloak") WebClient client, ModuleConfig module, KeycloakConfig keycloak,
    SidecarConfig config) {
    this.vertx = vertx;
    this.client = client;
    this.config = config;
    this.moduleHealthUrl = ConfigValidator.withoutTrailingSlash(module.url()) + module.healthPath();
    this.keycloakUrl = ConfigValidator.withoutTrailingSlash(keycloak.url()) + "/realms/master";
    this.timeoutMillis = keycloak.requestTimeout().toMillis();
  }

  void start(@Observes StartupEvent event) {
    probe();
    timerId = vertx.setPeriodic(config.healthProbeInterval().toMillis(), id -> probe());
  }

  void stop(@Observes ShutdownEvent event) {
    if (timerId >= 0) {
      vertx.cancelTimer(timerId);
    }
  }

  /** Runs both probes now; readiness changes when they answer. */
  public void probe() {
    client.getAbs(moduleHealthUrl).timeout(timeoutMillis).send()
      .onComplete(result -> moduleUp = result.succeeded() && result.result().statusCode() < 500);
    client.getAbs(keycloakUrl).timeout(timeoutMillis).send()
      .onComplete(result -> keycloakUp = result.succeeded() && result.result().statusCode() == 200);
  }

  public boolean moduleUp() {
    return moduleUp;
  }

  public boolean keycloakUp() {
    return keycloakUp;
  }
}
