package org.folio.sidecar.support;

import org.folio.sidecar.testkit.TestPlatform;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.HashMap;
import java.util.Map;

/** Points the sidecar under test at the shared {@link TestPlatform}; the platform outlives app restarts. */
public class SidecarTestResource implements QuarkusTestResourceLifecycleManager {

  private final Map<String, String> overrides = new HashMap<>();

  /** {@code @ResourceArg}s of the test class override the platform's configuration (e.g. the cache mode). */
  @Override
  public void init(Map<String, String> initArgs) {
    overrides.putAll(initArgs);
  }

  @Override
  public Map<String, String> start() {
    var config = new HashMap<>(TestPlatform.get().sidecarConfig());
    config.putAll(overrides);
    return config;
  }

  @Override
  public void stop() {
    // the platform is shared by every test class of the run and stops with the JVM
  }
}
