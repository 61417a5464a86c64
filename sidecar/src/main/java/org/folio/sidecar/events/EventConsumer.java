package org.folio.sidecar.events;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.folio.sidecar.config.EventsConfig;
import org.folio.sidecar.config.ModuleConfig;
import org.jboss.logging.Logger;

/**
 * Consumes upstream's topics on its own thread and has each event applied ({@link EventEffects}). A malformed
 * event, or one whose handling throws, is logged, counted and skipped alone. Each start uses
 * its own consumer group, so every sidecar instance sees every event; a lost broker is reconnected by the
 * client while the sidecar keeps serving.
 */
@Singleton
public class EventConsumer {

  private static final Logger LOGGER = Logger.getLogger(EventConsumer.class);

  private final EventsConfig config;
  private final ModuleConfig module;
  private final EventHandler handler;
  private final MeterRegistry registry;
  private final AtomicInteger assignedPartitions = new AtomicInteger();
  private final KafkaClients clients;
  private final List<KafkaConsumer<String, String>> consumers = new CopyOnWriteArrayList<>();
  private final List<Thread> threads = new CopyOnWriteArrayList<>();
  private volatile boolean running;

  EventConsumer(EventsConfig config, ModuleConfig module, KafkaClients clients, EventHandler handler,
    MeterRegistry registry) {
    this.config = config;
    this.module = module;
    this.clients = clients;
    this.handler = handler;
    this.registry = registry;
    registry.gauge("sidecar.events.assigned.partitions", assignedPartitions);
    if (clients.bootstrapServers() != null) {
      // at zero from start-up: an alert on malformed events must see the series before the first one
      for (var kind : List.of("discovery", "entitlement", "logout")) {
        for (var outcome : List.of("applied", "ignored", "malformed", "failed")) {
          counter(kind, outcome);
        }
      }
    }
  }

  void start(@Observes StartupEvent event) {
    if (clients.bootstrapServers() == null) {
      LOGGER.info("KAFKA_HOST is not set: no platform events; routes and entitlements are refreshed periodically");
      return;
    }
    var env = Pattern.quote(config.env());
    // one consumer per distinct client setting: usually all three kinds of topic share one
    var topicsBySettings = new LinkedHashMap<Properties, List<String>>();
    topicsBySettings.computeIfAbsent(clients.discovery(), p -> new ArrayList<>()).add(env + "\\.discovery");
    topicsBySettings.computeIfAbsent(clients.entitlement(), p -> new ArrayList<>()).add(env + "\\.entitlement");
    topicsBySettings.computeIfAbsent(clients.logout(), p -> new ArrayList<>())
      .add(env + "\\..+\\.mod-login-keycloak\\.logout");
    var group = config.sidecarName().filter(n -> !n.isBlank()).orElse("sc-" + module.name()) + "_" + UUID.randomUUID();
    running = true;
    topicsBySettings.forEach((settings, topics) -> {
      var properties = new Properties();
      properties.putAll(settings);
      properties.put(ConsumerConfig.GROUP_ID_CONFIG, group);
      properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
      properties.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, String.valueOf(config.topicRefreshInterval().toMillis()));
      properties.putIfAbsent(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, String.valueOf(config.fetchMaxWait().toMillis()));
      properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
      properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
      var consumer = new KafkaConsumer<String, String>(properties);
      var thread = new Thread(() -> consume(consumer, Pattern.compile(String.join("|", topics))),
        "sidecar-events-" + consumers.size());
      thread.setDaemon(true);
      consumers.add(consumer);
      threads.add(thread);
    });
    threads.forEach(Thread::start);
  }

  /** Whether the consumers are subscribed and polling (upstream's messaging readiness check). */
  public boolean consuming() {
    return running && !threads.isEmpty() && threads.stream().allMatch(Thread::isAlive);
  }

  void stop(@Observes ShutdownEvent event) {
    running = false;
    consumers.forEach(KafkaConsumer::wakeup);
    for (var thread : threads) {
      try {
        thread.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void consume(KafkaConsumer<String, String> consumer, Pattern topics) {
    try (var kafka = consumer) {
      kafka.subscribe(topics, new ConsumerRebalanceListener() {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
          assignedPartitions.addAndGet(-partitions.size());
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
          assignedPartitions.addAndGet(partitions.size());
        }
      });
      // nothing to do between polls: the wait may be as long as the broker's (a stop wakes the consumer up)
      var pollTimeout = config.fetchMaxWait();
      while (running) {
        try {
          for (var record : kafka.poll(pollTimeout)) {
            applyAlone(record);
          }
        } catch (WakeupException e) {
          return;
        } catch (RuntimeException e) {
          LOGGER.warnf("Kafka poll failed (%s); retrying", e.getClass().getSimpleName());
          pause();
        }
      }
    }
  }

  /** One record that cannot be applied never costs the rest of its poll, whose offsets move on regardless. */
  private void applyAlone(ConsumerRecord<String, String> record) {
    try {
      apply(record);
    } catch (RuntimeException e) {
      LOGGER.warnf("Event at %s-%d@%d could not be applied (%s); the next ones are", record.topic(),
        record.partition(), record.offset(), e.getClass().getSimpleName());
      count(record.topic(), "failed");
    }
  }

  private void apply(ConsumerRecord<String, String> record) {
    PlatformEvent event;
    try {
      // a record without a timestamp (-1, an old producer) takes the time it is read: a later watermark than the
      // logout's, so it ends more sessions, never fewer
      long at = record.timestamp() < 0 ? System.currentTimeMillis() : record.timestamp();
      event = PlatformEvent.parse(config.env(), record.topic(), record.value(), at);
    } catch (IllegalArgumentException e) {
      // the payload is not echoed: a malformed event could carry anything
      LOGGER.warnf("Skipped malformed event at %s-%d@%d: %s", record.topic(), record.partition(), record.offset(),
        e.getMessage());
      count(record.topic(), "malformed");
      return;
    }
    count(record.topic(), handler.apply(event));
  }

  private void count(String topic, String outcome) {
    var kind = topic.endsWith(".logout") ? "logout" : topic.substring(topic.lastIndexOf('.') + 1);
    counter(kind, outcome).increment();
  }

  private Counter counter(String kind, String outcome) {
    return Counter.builder("sidecar.events").tag("kind", kind).tag("outcome", outcome).register(registry);
  }

  private static void pause() {
    try {
      Thread.sleep(1_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
