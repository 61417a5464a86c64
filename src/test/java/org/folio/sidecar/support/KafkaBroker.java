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

  /**
   * Starts the broker behind {@code proxy} (clients only ever see the proxy's port), creates {@code topics}
   * and returns the bootstrap address.
   */
  public static String start(List<String> topics, TcpProxy proxy) {
    try {
      var cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
        .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build())
        .setConfigProp("advertised.listeners", "EXTERNAL://localhost:" + proxy.port())
        .setConfigProp("offsets.topic.replication.factor", "1")
        .setConfigProp("transaction.state.log.replication.factor", "1")
        .setConfigProp("transaction.state.log.min.isr", "1")
        .setConfigProp("group.initial.rebalance.delay.ms", "0")
        .setConfigProp("num.partitions", "1")
        .build();
      cluster.format();
      proxy.start();
      cluster.startup();
      // the broker's real port is known once it runs; until then the relay turns clients away and they retry
      var real = cluster.bootstrapServers();
      proxy.target(Integer.parseInt(real.substring(real.lastIndexOf(':') + 1)));
      cluster.waitForReadyBrokers();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        try {
          cluster.close();
        } catch (Exception e) {
          // the JVM is going away
        }
      }, "kafka-stop"));
      var bootstrap = "localhost:" + proxy.port();
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
