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
   * Starts a second broker that speaks only TLS to clients, with {@code keystore} (PKCS12, password
   * {@link Certificates#PASSWORD}); creates {@code topics} and returns the bootstrap address.
   */
  public static String startTls(List<String> topics, java.nio.file.Path keystore) {
    try {
      // the test kit's own listeners stay plaintext (it supports no other); clients get a TLS listener of their own
      int tlsPort = FreePorts.next();
      var cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
        .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build())
        .setConfigProp("listeners", "EXTERNAL://localhost:0,CONTROLLER://localhost:0,TLS://localhost:" + tlsPort)
        .setConfigProp("listener.security.protocol.map", "EXTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT,TLS:SSL")
        .setConfigProp("listener.name.tls.ssl.keystore.location", keystore.toString())
        .setConfigProp("listener.name.tls.ssl.keystore.password", Certificates.PASSWORD)
        .setConfigProp("listener.name.tls.ssl.key.password", Certificates.PASSWORD)
        .setConfigProp("listener.name.tls.ssl.keystore.type", "PKCS12")
        .setConfigProp("offsets.topic.replication.factor", "1")
        .setConfigProp("group.initial.rebalance.delay.ms", "0")
        .setConfigProp("num.partitions", "1")
        .build();
      cluster.format();
      cluster.startup();
      cluster.waitForReadyBrokers();
      closeOnExit(cluster);
      var bootstrap = "localhost:" + tlsPort;
      var client = new java.util.HashMap<String, Object>(tlsClient(keystore));
      client.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      try (var admin = Admin.create(client)) {
        admin.createTopics(topics.stream().map(topic -> new NewTopic(topic, 1, (short) 1)).toList())
          .all().get(30, TimeUnit.SECONDS);
      }
      return bootstrap;
    } catch (Exception e) {
      throw new IllegalStateException("Cannot start the TLS Kafka broker", e);
    }
  }

  /**
   * Starts a broker that speaks only SASL/PLAIN to clients (the test kit's own JAAS users), creates
   * {@code topics} and returns the bootstrap address; {@link #saslClient()} logs in to it.
   */
  public static String startSasl(List<String> topics) {
    try {
      var cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
        .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1)
        .setBrokerSecurityProtocol(org.apache.kafka.common.security.auth.SecurityProtocol.SASL_PLAINTEXT)
        .setControllerSecurityProtocol(org.apache.kafka.common.security.auth.SecurityProtocol.SASL_PLAINTEXT).build())
        .setConfigProp("offsets.topic.replication.factor", "1")
        .setConfigProp("group.initial.rebalance.delay.ms", "0")
        .setConfigProp("num.partitions", "1")
        .build();
      cluster.format();
      cluster.startup();
      cluster.waitForReadyBrokers();
      closeOnExit(cluster);
      var bootstrap = cluster.bootstrapServers();
      var client = new java.util.HashMap<String, Object>(saslClient());
      client.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      try (var admin = Admin.create(client)) {
        admin.createTopics(topics.stream().map(topic -> new NewTopic(topic, 1, (short) 1)).toList())
          .all().get(30, TimeUnit.SECONDS);
      }
      return bootstrap;
    } catch (Exception e) {
      throw new IllegalStateException("Cannot start the SASL Kafka broker", e);
    }
  }

  /** Client properties that log in to the SASL broker as the test kit's PLAIN admin (its authorizer is on). */
  public static Map<String, Object> saslClient() {
    return Map.of("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "PLAIN", "sasl.jaas.config",
      "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"plain-admin\" "
        + "password=\"plain-admin-secret\";");
  }

  /** Client properties that trust the TLS broker's certificate (the keystore it serves). */
  public static Map<String, Object> tlsClient(java.nio.file.Path keystore) {
    return Map.of("security.protocol", "SSL", "ssl.truststore.location", keystore.toString(),
      "ssl.truststore.password", Certificates.PASSWORD, "ssl.truststore.type", "PKCS12");
  }

  private static void closeOnExit(KafkaClusterTestKit cluster) {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        cluster.close();
      } catch (Exception e) {
        // the JVM is going away
      }
    }, "kafka-stop"));
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
      closeOnExit(cluster);
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
