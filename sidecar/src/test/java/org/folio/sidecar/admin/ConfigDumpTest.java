package org.folio.sidecar.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * The config dump redacts by default (issue 43 row 6): with every secret-bearing variable that upstream, Kafka's
 * clients, Quarkus' TLS and the secret stores know of set, none of their values is in the dump, while the
 * sidecar's limits and switches still show.
 */
class ConfigDumpTest {

  /** Each secret's value is its own name, so a leak names the variable that leaked. */
  private static final String[] SECRETS = {
    // Kafka's clients, shared settings (KAFKA_<CLIENT_PROPERTY>)
    "KAFKA_SSL_KEY_PASSWORD", "KAFKA_SSL_KEYSTORE_PASSWORD", "KAFKA_SSL_KEYSTORE_KEY",
    "KAFKA_SSL_KEYSTORE_CERTIFICATE_CHAIN", "KAFKA_SSL_TRUSTSTORE_PASSWORD", "KAFKA_SSL_TRUSTSTORE_CERTIFICATES",
    "KAFKA_SASL_JAAS_CONFIG", "KAFKA_SASL_OAUTHBEARER_ASSERTION_PRIVATE_KEY_PASSPHRASE",
    "KAFKA_SASL_OAUTHBEARER_ASSERTION_FILE",
    "KAFKA_SASL_OAUTHBEARER_CLIENT_CREDENTIALS_CLIENT_SECRET",
    "KAFKA_SASL_OAUTHBEARER_ASSERTION_CLAIM_SUB", "KAFKA_SASL_OAUTHBEARER_JWT_RETRIEVER_CLASS_SECRET",
    "KAFKA_SASL_KERBEROS_SERVICE_NAME_SECRET", "KAFKA_SSL_ENGINE_FACTORY_SECRET", "KAFKA_BASIC_AUTH_USER_INFO",
    "KAFKA_SASL_USERNAME", "KAFKA_SASL_PASSWORD",
    // Kafka per kind of topic (upstream's names)
    "DISCOVERY_TLS_KEY_PASSWORD", "DISCOVERY_TLS_KEYSTORE_PASSWORD", "DISCOVERY_TLS_TRUSTSTORE_PASSWORD",
    "DISCOVERY_TLS_TRUSTSTORE_CERTIFICATES", "ENTITLEMENT_TLS_KEY_PASSWORD", "ENTITLEMENT_TLS_KEYSTORE_PASSWORD",
    "ENTITLEMENT_TLS_TRUSTSTORE_PASSWORD", "ENTITLEMENT_TLS_TRUSTSTORE_CERTIFICATES", "LOGOUT_TLS_KEY_PASSWORD",
    "LOGOUT_TLS_KEYSTORE_PASSWORD", "LOGOUT_TLS_TRUSTSTORE_PASSWORD", "LOGOUT_TLS_TRUSTSTORE_CERTIFICATES",
    // TLS, serving and trusting
    "SC_TLS_KEYSTORE_PASSWORD", "SC_TLS_KEYSTORE_KEY_PASSWORD", "SC_TLS_KEY_PASSWORD",
    "SC_CLIENT_TLS_TRUSTSTORE_PASSWORD", "KC_CLIENT_TLS_TRUSTSTORE_PASSWORD", "MGR_CLIENT_TLS_TRUSTSTORE_PASSWORD",
    "GW_CLIENT_TLS_TRUSTSTORE_PASSWORD",
    // secret stores
    "SECRET_STORE_AWS_SSM_ACCESS_KEY", "SECRET_STORE_AWS_SSM_SECRET_KEY", "SECRET_STORE_AWS_SSM_TRUSTSTORE_PASSWORD",
    "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "SECRET_STORE_VAULT_TOKEN",
    "SECRET_STORE_VAULT_KEYSTORE_PASSWORD", "SECRET_STORE_VAULT_ROLE_ID", "SECRET_STORE_VAULT_SECRET_ID",
    "SECRET_STORE_FSSP_KEYSTORE_PASSWORD", "SECRET_STORE_FSSP_TRUSTSTORE_PASSWORD",
    "SECRET_STORE_EPHEMERAL_CONTENT_FOLIO_MASTER_FOLIO_BACKEND_ADMIN_CLIENT",
    // Keycloak clients and admin
    "KC_ADMIN_CLIENT_SECRET", "KC_SERVICE_CLIENT_SECRET", "KC_CLIENT_SECRET", "KC_ADMIN_PASSWORD",
    "KEYCLOAK_ADMIN_PASSWORD", "KC_BOOTSTRAP_ADMIN_PASSWORD", "SIDECAR_ADMIN_TOKEN", "SIDECAR_AUTHZ_CACHE_ADMIN_TOKEN",
  };

  @Test
  void noSecretVariableShowsItsValue() throws IOException {
    var env = new LinkedHashMap<String, String>();
    for (var name : SECRETS) {
      env.put(name, "leak-" + name);
    }
    // properties set directly rather than as variables: the ephemeral store's content and the dotted Kafka names
    var properties = Map.of("secret-store.vault.secret-id", "leak-vault-secret-id",
      "secret-store.vault.role-id", "leak-vault-role-id",
      "secret-store.ephemeral.content.folio_master_sidecar-module-access-client", "leak-ephemeral",
      "kafka.sasl.oauthbearer.assertion.private.key.passphrase", "leak-dotted-passphrase",
      "kafka.ssl.keystore.key", "leak-dotted-keystore-key",
      "quarkus.http.ssl.certificate.key-store-password", "leak-quarkus-key-store-password",
      "quarkus.management.ssl.certificate.key-store-password", "leak-management-key-store-password",
      "quarkus.tls.key-store.p12.password", "leak-tls-registry-password");
    // a key file's path and a client id are no secrets
    env.put("KAFKA_SASL_OAUTHBEARER_ASSERTION_PRIVATE_KEY_FILE", "/etc/kafka/assertion-key.pem");
    env.put("KAFKA_SASL_OAUTHBEARER_CLIENT_CREDENTIALS_CLIENT_ID", "sidecar-kafka");
    var dump = dump(env, properties);

    assertThat(dump).doesNotContain("leak-");
    // what is known to be safe still shows
    var shown = ConfigDumpTest.properties(dump);
    assertThat(shown.getJsonObject("sidecar.request-timeout").getString("value")).isEqualTo("60000");
    assertThat(shown.getJsonObject("kc.request-timeout").getString("value")).isEqualTo("15000ms");
    assertThat(shown.getJsonObject("secret-store.type").getString("value")).isEqualTo("EPHEMERAL");
    assertThat(shown.getJsonObject("token.refused-token-min-age").getString("value")).isEqualTo("30s");
    assertThat(shown.getJsonObject("token.service-client-id").getString("value"))
      .isEqualTo("sidecar-module-access-client");
    assertThat(shown.getJsonObject("kafka.sasl.oauthbearer.assertion.private.key.file").getString("value"))
      .isEqualTo("/etc/kafka/assertion-key.pem");
    assertThat(shown.getJsonObject("KAFKA_SASL_OAUTHBEARER_CLIENT_CREDENTIALS_CLIENT_ID").getString("value"))
      .isEqualTo("sidecar-kafka");
    // the variables' resolved properties are listed, redacted
    assertThat(shown.getJsonObject("KAFKA_SSL_KEYSTORE_KEY").getString("value")).isEqualTo(ConfigDump.REDACTED);
    assertThat(shown.getJsonObject("events.logout.tls-key-password").getString("value"))
      .isEqualTo(ConfigDump.REDACTED);
  }

  @Test
  void aUrlShowsWithoutItsUserInfo() throws IOException {
    var dump = dump(Map.of("KC_URL", "https://user:pw@keycloak:8443", "KAFKA_HOST", "kafka"),
      Map.of("kc.url", "${KC_URL}"));
    var shown = properties(dump);
    assertThat(shown.getJsonObject("kc.url").getString("value")).isEqualTo("https://<redacted>@keycloak:8443");
    assertThat(shown.getJsonObject("events.kafka-host").getString("value")).isEqualTo("kafka");
  }

  @Test
  void aValueSetThroughUpstreamsVariableNamesShowsThatVariableAsItsSource() throws IOException {
    var shown = properties(dump(Map.of("REQUEST_TIMEOUT", "7000", "QUARKUS_HTTP_LIMITS_MAX_BODY_SIZE", "2G"),
      Map.of()));
    var timeout = shown.getJsonObject("sidecar.request-timeout");
    assertThat(timeout.getString("value")).isEqualTo("7000");
    assertThat(timeout.getString("source")).startsWith("EnvConfigSource").endsWith(" (REQUEST_TIMEOUT)");
    // the second variable of sidecar.max-body-size=${SIDECAR_MAX_BODY_SIZE:${QUARKUS_HTTP_LIMITS_MAX_BODY_SIZE:1G}}
    assertThat(shown.getJsonObject("sidecar.max-body-size").getString("source"))
      .endsWith(" (QUARKUS_HTTP_LIMITS_MAX_BODY_SIZE)");
    // unset, the default of application.properties applies, and that file is the source
    var unset = properties(dump(Map.of(), Map.of())).getJsonObject("sidecar.request-timeout");
    assertThat(unset.getString("value")).isEqualTo("60000");
    assertThat(unset.getString("source")).contains("application.properties").doesNotContain("REQUEST_TIMEOUT");
  }

  private static String dump(Map<String, String> env, Map<String, String> properties) throws IOException {
    var config = new SmallRyeConfigBuilder().addDefaultInterceptors()
      .withSources(new PropertiesConfigSource(
        Objects.requireNonNull(ConfigDump.class.getResource("/application.properties")), 250))
      .withSources(new EnvConfigSource(env, 300))
      .withSources(new PropertiesConfigSource(properties, "test properties", 260))
      .build();
    return new ConfigDump(config).dump(null).body().encode();
  }

  private static JsonObject properties(String dump) {
    return new JsonObject(dump).getJsonObject("properties");
  }
}
