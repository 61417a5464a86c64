package org.folio.sidecar.ingress;

import io.vertx.ext.web.Router;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.folio.sidecar.health.HealthRoutes;

/** Puts the sidecar's own endpoints first and sends every other request through ingress. */
@Singleton
public class SidecarRoutes {

  private static final String QUARKUS_ENDPOINTS = "/q/";

  void register(@Observes Router router, HealthRoutes health, IngressHandler ingress) {
    router.get("/admin/health").handler(health::ready);
    router.get("/admin/health/ready").handler(health::ready);
    router.get("/admin/health/live").handler(health::live);
    router.get("/admin/health/started").handler(health::live);
    router.route().handler(context -> {
      var path = context.request().path();
      if (path != null && path.startsWith(QUARKUS_ENDPOINTS)) {
        context.next();
      } else {
        ingress.handle(context);
      }
    });
  }
}
