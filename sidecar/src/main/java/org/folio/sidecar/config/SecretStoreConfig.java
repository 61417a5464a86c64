package org.folio.sidecar.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Where Keycloak client secrets and system-user passwords come from, with upstream's variables
 * ({@code SECRET_STORE_*}) and defaults. EPHEMERAL secrets are properties
 * {@code secret-store.ephemeral.content.<key>}.
 */
@ConfigMapping(prefix = "secret-store")
public interface SecretStoreConfig {

  enum Type {
    EPHEMERAL, AWS_SSM, VAULT, FSSP
  }

  /** SECRET_STORE_TYPE: EPHEMERAL, AWS_SSM, VAULT or FSSP. */
  @WithDefault("EPHEMERAL")
  String type();

  /** SIDECAR_SECRET_CACHE_TTL: a secret read from the store is reused this long (a rotation shows up within it). */
  @WithDefault("15m")
  Duration cacheTtl();

  /**
   * SIDECAR_SECRET_FAILURE_CACHE_TTL: a key the store does not have is remembered as missing this long, and a
   * secret whose reload failed is used this long before the store is asked again.
   */
  @WithDefault("30s")
  Duration failureCacheTtl();

  /** SIDECAR_SECRET_STORE_TIMEOUT: limit for one call to the store. */
  @WithDefault("5s")
  Duration timeout();

  /**
   * EPHEMERAL secrets, {@code secret-store.ephemeral.content.<key>}: from properties and mounted files here; an
   * environment variable ({@code SECRET_STORE_EPHEMERAL_CONTENT_<KEY>}) is found by the key's name.
   */
  @WithName("ephemeral.content")
  Map<String, String> ephemeralContent();

  @WithName("aws-ssm")
  AwsSsm awsSsm();

  Vault vault();

  Fssp fssp();

  /** SECRET_STORE_AWS_SSM_*: AWS Systems Manager Parameter Store, SecureString parameters named by the key. */
  interface AwsSsm {
    Optional<String> region();

    /** SECRET_STORE_AWS_SSM_USE_IAM: the SDK's default credentials chain; false: the access and secret keys. */
    @WithDefault("true")
    boolean useIam();

    Optional<String> accessKey();

    Optional<String> secretKey();

    /** SECRET_STORE_AWS_SSM_ECS_CREDENTIALS_ENDPOINT (+ _PATH): with USE_IAM=false, the endpoint called, as upstream. */
    Optional<String> ecsCredentialsEndpoint();

    Optional<String> ecsCredentialsPath();

    @WithDefault("false")
    boolean fipsEnabled();

    Optional<String> trustStorePath();

    Optional<String> trustStorePassword();

    Optional<String> trustStoreFileType();
  }

  /** SECRET_STORE_VAULT_*: HashiCorp Vault, KV version 2; key {@code a_b_c} is field {@code c} of {@code secret/a/b}. */
  interface Vault {
    Optional<String> address();

    Optional<String> token();

    /** The KV mount, as upstream's {@code secretRoot}. */
    @WithDefault("secret")
    String secretRoot();

    @WithDefault("false")
    boolean enableSsl();

    /** A PEM file of the CAs trusted for Vault. */
    Optional<String> pemFilePath();

    /** A JKS truststore of the CAs trusted for Vault. */
    Optional<String> truststoreFilePath();

    /** A JKS keystore with the client certificate, for Vault's TLS client authentication. */
    Optional<String> keystoreFilePath();

    Optional<String> keystorePassword();
  }

  /** SECRET_STORE_FSSP_*: FOLIO's secure store proxy, {@code GET <address>/<secret path>/<key>}. */
  interface Fssp {
    Optional<String> address();

    @WithDefault("secure-store/entries")
    String secretPath();

    Optional<String> keyStorePath();

    Optional<String> keyStoreFileType();

    Optional<String> keyStorePassword();

    Optional<String> trustStorePath();

    Optional<String> trustStoreFileType();

    Optional<String> trustStorePassword();
  }
}
