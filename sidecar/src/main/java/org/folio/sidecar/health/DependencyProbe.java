package org.folio.sidecar.health;

import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.folio.sidecar.config.ConfigValidator;
import org.folio.sidecar.config.KeycloakConfig;
import org.folio.sidecar.config.ModuleConfig;
import org.folio.sidecar.config.SidecarConfig;
import org.folio.sidecar.error.Availability;
import org.folio.sidecar.routing.ModulePathPrefix;
import org.folio.sidecar.events.KafkaClients;
import org.jspecify.annotations.Nullable;

/**
 * Probes the module's health path, the Kafka cluster and Keycloak in the background, so health answers from
 * memory instead of adding network calls to every probe. Keycloak is probed for the metric and the
 * informational entry only: the decision cache serves through a Keycloak outage, so it never makes the
 * sidecar unready.
 */
@Singleton
public class DependencyProbe {

  private final Vertx vertx;
  private final WebClient client;
  private final String moduleHealthUrl;
  private final String keycloakUrl;
  private final @Nullable String kafkaNodes;
  private final KafkaClients kafkaClients;
  private final SidecarConfig config;
  private final long timeoutMillis;
  private volatile boolean moduleUp;
  private volatile boolean keycloakUp;
  private volatile boolean kafkaUp;
  private final MeterRegistry registry;
  private final List<Gauge> gauges;
  private @Nullable KafkaConsumer<byte[], byte[]> kafka;
  private final AtomicBoolean kafkaProbing = new AtomicBoolean();
  private long timerId = -1;
  private final Availability moduleAvailability;
  private final Availability keycloakAvailability;
  private final Availability kafkaAvailability;

  DependencyProbe(Vertx vertx, @Named("keycloak") WebClient client, ModuleConfig module, KeycloakConfig keycloak,
    KafkaClients kafkaClients, SidecarConfig config, MeterRegistry registry, ModulePathPrefix pathPrefix,
    Ticker ticker) {
    this.kafkaClients = kafkaClients;
    this.vertx = vertx;
    this.client = client;
    this.config = config;
    // as upstream, the health path goes to the module the way its requests do (with the prefix under PROXY)
    this.moduleHealthUrl = ConfigValidator.withoutTrailingSlash(module.url())
      + pathPrefix.toModule(module.healthPath());
    this.keycloakUrl = ConfigValidator.withoutTrailingSlash(keycloak.url()) + "/realms/master";
    this.kafkaNodes = kafkaClients.bootstrapServers();
    this.timeoutMillis = keycloak.requestTimeout().toMillis();
    this.registry = registry;
    this.moduleAvailability = new Availability("The module is unreachable: %s; the sidecar is not ready",
      "The module is reachable again after %d s", ticker);
    this.keycloakAvailability = new Availability("Keycloak is unreachable: %s; cached grants keep serving up to "
      + "SIDECAR_AUTHZ_CACHE_MAX_STALENESS past their TTL, decisions not cached answer 503",
      "Keycloak is reachable again after %d s", ticker);
    this.kafkaAvailability = new Availability("Kafka is unreachable: %s; logout, entitlement and discovery events "
      + "wait, the sidecar is not ready", "Kafka is reachable again after %d s", ticker);
    var gauges = new ArrayList<>(List.of(
      Gauge.builder("sidecar.dependency.up", this, probe -> probe.keycloakUp ? 1 : 0)
        .tags(Tags.of("dependency", "keycloak")).description("1 while the dependency answers its probe")
        .register(registry),
      Gauge.builder("sidecar.dependency.up", this, probe -> probe.moduleUp ? 1 : 0)
        .tags(Tags.of("dependency", "module")).register(registry)));
    if (kafkaNodes != null) {
      // only when KAFKA_HOST is set, so an alert on an idle consumer can tell "not consuming" from "not asked to"
      gauges.add(Gauge.builder("sidecar.dependency.up", this, probe -> probe.kafkaUp ? 1 : 0)
        .tags(Tags.of("dependency", "kafka")).register(registry));
    }
    this.gauges = List.copyOf(gauges);
  }

  void start(@Observes StartupEvent event) {
    if (kafkaNodes != null) {
      // the discovery topic's settings (TLS, SASL): the connection upstream's Kafka check reports on
      var properties = kafkaClients.discovery();
      properties.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeoutMillis);
      properties.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeoutMillis);
      // a consumer without a group, not an admin client: it never joins, subscribes or fetches, it only asks a
      // broker for the cluster's metadata, with the classes the event consumer loads anyway (an admin client
      // loads its own, and runs a thread of its own)
      kafka = new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
    probe();
    timerId = vertx.setPeriodic(config.healthProbeInterval().toMillis(), id -> probe());
  }

  void stop(@Observes ShutdownEvent event) {
    if (timerId >= 0) {
      vertx.cancelTimer(timerId);
    }
    var consumer = kafka;
    kafka = null;
    if (consumer != null) {
      // a probe in flight gives up at once; the consumer is closed on no other thread than one probe's at a time
      consumer.wakeup();
      synchronized (consumer) {
        consumer.close(Duration.ofSeconds(1));
      }
    }
    // Quarkus' registry outlives an application restart in one JVM (tests); a stale gauge would read this probe
    gauges.forEach(registry::remove);
  }

  /** Runs the probes now; health changes when they answer. */
  public void probe() {
    // as upstream's URL check: only a 200 from the module's health path is UP
    client.getAbs(moduleHealthUrl).timeout(timeoutMillis).send().onComplete(result -> {
      moduleUp = result.succeeded() && result.result().statusCode() == 200;
      seen(moduleAvailability, moduleUp, () -> moduleHealthUrl + (result.succeeded()
        ? " answered " + result.result().statusCode()
        : " " + cause(result.cause())));
    });
    client.getAbs(keycloakUrl).timeout(timeoutMillis).send().onComplete(result -> {
      keycloakUp = result.succeeded() && result.result().statusCode() < 500;
      seen(keycloakAvailability, keycloakUp, () -> keycloakUrl + (result.succeeded()
        ? " answered " + result.result().statusCode()
        : " " + cause(result.cause())));
    });
    var consumer = kafka;
    // one probe at a time (a consumer is single-threaded; a broker that does not answer holds a probe for the
    // timeout, longer than the interval may be); the wait happens on a worker, never the loop
    if (consumer != null && kafkaProbing.compareAndSet(false, true)) {
      vertx.executeBlocking(() -> {
        synchronized (consumer) {
          // throws unless a broker answered the metadata request in time
          return consumer.listTopics(Duration.ofMillis(timeoutMillis));
        }
      }, false).onComplete(result -> {
        kafkaUp = result.succeeded();
        if (kafka != null) {
          // not the probe that stop() woke up
          seen(kafkaAvailability, kafkaUp, () -> kafkaNodes + " " + cause(result.cause()));
        }
        kafkaProbing.set(false);
      });
    }
  }

  private static void seen(Availability availability, boolean up, Supplier<String> cause) {
    if (up) {
      availability.up();
    } else {
      availability.down(cause.get());
    }
  }

  private static String cause(@Nullable Throwable error) {
    return error == null
      ? "failed"
      : "failed: " + error.getClass().getSimpleName()
        + (error.getMessage() == null ? "" : " " + error.getMessage());
  }

  public String moduleHealthUrl() {
    return moduleHealthUrl;
  }

  public boolean moduleUp() {
    return moduleUp;
  }

  public boolean keycloakUp() {
    return keycloakUp;
  }

  /** Null when KAFKA_HOST is not set: then there is no Kafka check. */
  public @Nullable String kafkaNodes() {
    return kafkaNodes;
  }

  public boolean kafkaUp() {
    return kafkaUp;
  }
}
