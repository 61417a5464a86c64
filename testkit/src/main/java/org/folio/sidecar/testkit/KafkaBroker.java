package org.folio.sidecar.testkit;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.common.utils.Exit;

/** A real Kafka broker (KRaft, combined controller and broker) in the test JVM, started once per run. */
public final class KafkaBroker {

  private KafkaBroker() {
  }

  /**
   * Starts a second broker that speaks only TLS to clients, with {@code keystore} (PKCS12, password
   * {@link Certificates#PASSWORD}); creates {@code topics} and returns the bootstrap address.
   */
  public static String startTls(List<String> topics, Path keystore) {
    // the test kit's own listeners stay plaintext (it supports no other); clients get a TLS listener of their own
    int tlsPort = FreePorts.next();
    var cluster = secured(new TestKitNodes.Builder().setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1)
      .build(),
      Map.of(
        "listeners", "EXTERNAL://localhost:0,CONTROLLER://localhost:0,TLS://localhost:" + tlsPort,
        "listener.security.protocol.map", "EXTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT,TLS:SSL",
        "listener.name.tls.ssl.keystore.location", keystore.toString(),
        "listener.name.tls.ssl.keystore.password", Certificates.PASSWORD,
        "listener.name.tls.ssl.key.password", Certificates.PASSWORD,
        "listener.name.tls.ssl.keystore.type", "PKCS12"));
    var bootstrap = "localhost:" + tlsPort;
    createTopics(bootstrap, tlsClient(keystore), topics);
    return bootstrap;
  }

  /**
   * Starts a broker that speaks only SASL/PLAIN to clients (the test kit's own JAAS users), creates
   * {@code topics} and returns the bootstrap address; {@link #saslClient()} logs in to it.
   */
  public static String startSasl(List<String> topics) {
    var cluster = secured(new TestKitNodes.Builder().setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1)
      .setBrokerSecurityProtocol(SecurityProtocol.SASL_PLAINTEXT)
      .setControllerSecurityProtocol(SecurityProtocol.SASL_PLAINTEXT).build(), Map.of());
    createTopics(cluster.bootstrapServers(), saslClient(), topics);
    return cluster.bootstrapServers();
  }

  /** A started single-node cluster with {@code properties}, stopped with the JVM. */
  private static KafkaClusterTestKit secured(TestKitNodes nodes, Map<String, String> properties) {
    try {
      var builder = new KafkaClusterTestKit.Builder(nodes)
        .setConfigProp("offsets.topic.replication.factor", "1")
        .setConfigProp("group.initial.rebalance.delay.ms", "0")
        .setConfigProp("num.partitions", "1");
      properties.forEach(builder::setConfigProp);
      var cluster = builder.build();
      cluster.format();
      cluster.startup();
      cluster.waitForReadyBrokers();
      closeOnExit(cluster);
      return cluster;
    } catch (Exception e) {
      throw new IllegalStateException("Cannot start the secured Kafka broker", e);
    }
  }

  private static void createTopics(String bootstrap, Map<String, Object> clientProperties, List<String> topics) {
    var client = new HashMap<String, Object>(clientProperties);
    client.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    try (var admin = Admin.create(client)) {
      admin.createTopics(topics.stream().map(topic -> new NewTopic(topic, 1, (short) 1)).toList())
        .all().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("Cannot create the topics", e);
    }
  }

  /** Client properties that log in to the SASL broker as the test kit's PLAIN admin (its authorizer is on). */
  public static Map<String, Object> saslClient() {
    return Map.of("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "PLAIN", "sasl.jaas.config",
      "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"plain-admin\" "
        + "password=\"plain-admin-secret\";");
  }

  /** Client properties that trust the TLS broker's certificate (the keystore it serves). */
  public static Map<String, Object> tlsClient(Path keystore) {
    return Map.of("security.protocol", "SSL", "ssl.truststore.location", keystore.toString(),
      "ssl.truststore.password", Certificates.PASSWORD, "ssl.truststore.type", "PKCS12");
  }

  private static void closeOnExit(KafkaClusterTestKit cluster) {
    // the test kit's temp-dir hook deletes the broker's log dirs while it stops, and the broker answers a log-dir
    // failure with Exit.halt(1): that turned a clean System.exit(0) of the test JVM or the demo into exit 1
    Exit.setHaltProcedure((status, message) -> {
      if (!shuttingDown()) {
        Runtime.getRuntime().halt(status);
      }
    });
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        cluster.close();
      } catch (Exception e) {
        // the JVM is going away
      }
    }, "kafka-stop"));
  }

  private static boolean shuttingDown() {
    var probe = new Thread(() -> {
    });
    try {
      Runtime.getRuntime().addShutdownHook(probe);
      Runtime.getRuntime().removeShutdownHook(probe);
      return false;
    } catch (IllegalStateException e) {
      return true;
    }
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
