package org.folio.sidecar.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.folio.sidecar.testkit.FreePorts;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The packaged sidecar started as an operator starts it, with one bad variable: it must stop with a message that
 * names the variable, before it calls anything (no retries of Keycloak or the managers) and without a stack trace.
 */
class BadConfigurationIT {

  /** Nothing listens on the discard port: a sidecar that got past validation would retry its calls, and say so. */
  private static final String NOBODY = "http://127.0.0.1:9";

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(delimiter = '|', value = {
    "KC_URL                  | notaurl            | KC_URL must be an absolute http(s) URL, got 'notaurl'",
    "MODULE_URL              | ftp://module:8081  | MODULE_URL must be an absolute http(s) URL",
    "SECRET_STORE_TYPE       | KEEPASS            | SECRET_STORE_TYPE must be one of EPHEMERAL, AWS_SSM, VAULT, FSSP, got 'KEEPASS'",
    "SECRET_STORE_TYPE       | AWS_SSM            | SECRET_STORE_AWS_SSM_REGION is required for this SECRET_STORE_TYPE",
    "SECRET_STORE_TYPE       | VAULT              | SECRET_STORE_VAULT_ADDRESS is required for this SECRET_STORE_TYPE",
    "SECRET_STORE_TYPE       | FSSP               | SECRET_STORE_FSSP_ADDRESS is required for this SECRET_STORE_TYPE",
    "SIDECAR_ROUTE_OVERRIDES | mod-srs            | SIDECAR_ROUTE_OVERRIDES entry 'mod-srs' is not name=url",
    "MODULE_DESCRIPTOR_PATH  | /no/such/file.json | MODULE_DESCRIPTOR_PATH '/no/such/file.json' is not a readable module descriptor",
    "SIDECAR_AUTHZ_CACHE_REFRESH_AFTER | 11m     | SIDECAR_AUTHZ_CACHE_REFRESH_AFTER (PT11M) must be shorter than SIDECAR_AUTHZ_CACHE_ALLOW_TTL (PT10M)",
    "SIDECAR_AUTHZ_CACHE_DENY_TTL      | 10m1s   | SIDECAR_AUTHZ_CACHE_DENY_TTL (PT10M1S) must not be longer than SIDECAR_AUTHZ_CACHE_ALLOW_TTL (PT10M)",
    "MGR_CLIENT_TLS_TRUSTSTORE_PATH    | /no/ca.p12 | MGR_CLIENT_TLS_TRUSTSTORE_PATH must name a readable file, got '/no/ca.p12'",
    "SIDECAR_KAFKA_FETCH_MAX_WAIT      | 0s      | SIDECAR_KAFKA_FETCH_MAX_WAIT must be positive",
    "SIDECAR_ADMIN_FAILURE_BACKOFF_MAX | 500ms   | SIDECAR_ADMIN_FAILURE_BACKOFF_MAX (PT0.5S) must not be shorter than SIDECAR_ADMIN_FAILURE_BACKOFF (PT1S)",
    "SIDECAR_ADMIN_AUDIT_REFUSED_LINES | 0       | SIDECAR_ADMIN_AUDIT_REFUSED_LINES must be positive",
    "SIDECAR_SEND_BUFFER_SIZE          | 3G      | SIDECAR_SEND_BUFFER_SIZE must be 0 (left to the kernel) or a size up to 2G, got 3221225472",
  })
  void stopsAtOnceNamingTheVariable(String variable, String value, String message) throws Exception {
    var output = Files.createTempFile("sidecar-start", ".log");
    int port = FreePorts.next();
    var builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
      "-jar", "target/quarkus-app/quarkus-run.jar").redirectErrorStream(true).redirectOutput(output.toFile());
    var env = builder.environment();
    env.putAll(Map.of("QUARKUS_HTTP_PORT", String.valueOf(port), "MODULE_NAME", "mod-items",
      "MODULE_VERSION", "1.0.0", "MODULE_URL", NOBODY, "SIDECAR_URL", "http://127.0.0.1:" + port, "KC_URL", NOBODY,
      "TE_CLIENT_URL", NOBODY, "TM_CLIENT_URL", NOBODY, "AM_CLIENT_URL", NOBODY, "SECRET_STORE_TYPE", "EPHEMERAL"));
    env.put("QUARKUS_MANAGEMENT_PORT", String.valueOf(FreePorts.next()));
    env.put(variable, value);

    var process = builder.start();
    boolean exited = process.waitFor(60, TimeUnit.SECONDS);
    if (!exited) {
      process.destroyForcibly().waitFor();
    }

    var text = Files.readString(output);
    assertThat(exited).as("stopped by itself; its output:%n%s", text).isTrue();
    assertThat(process.exitValue()).isNotZero();
    assertThat(text).contains(message).doesNotContain("retrying").doesNotContainPattern("\\n\\s+at [a-z]");
    Files.delete(output);
  }
}
