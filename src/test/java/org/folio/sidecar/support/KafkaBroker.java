package org.folio.sidecar.support;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/** A real Kafka broker (KRaft, combined controller and broker) in the test JVM, started once per run. */
public final class KafkaBroker {

  private KafkaBroker() {
  }

  /** Starts the broker, creates {@code topics} and returns the bootstrap address. */
  public static String start(List<String> topics) {
    try {
      var cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
        .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build())
        .setConfigProp("offsets.topic.replication.factor", "1")
        .setConfigProp("transaction.state.log.replication.factor", "1")
        .setConfigProp("transaction.state.log.min.isr", "1")
        .setConfigProp("group.initial.rebalance.delay.ms", "0")
        .setConfigProp("num.partitions", "1")
        .build();
      cluster.format();
      cluster.startup();
      cluster.waitForReadyBrokers();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        try {
          cluster.close();
        } catch (Exception e) {
          // the JVM is going away
        }
      }, "kafka-stop"));
      var bootstrap = cluster.bootstrapServers();
      try (var admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
        admin.createTopics(topics.stream().map(topic -> new NewTopic(topic, 1, (short) 1)).toList())
          .all().get(30, TimeUnit.SECONDS);
      }
      return bootstrap;
    } catch (Exception e) {
      throw new IllegalStateException("Cannot start the Kafka broker", e);
    }
  }
}
