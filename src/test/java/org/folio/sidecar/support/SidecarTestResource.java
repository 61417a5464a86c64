package org.folio.sidecar.support;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/** Points the sidecar under test at the shared {@link TestPlatform}; the platform outlives app restarts. */
public class SidecarTestResource implements QuarkusTestResourceLifecycleManager {

  @Override
  public Map<String, String> start() {
    return TestPlatform.get().sidecarConfig();
  }

  @Override
  public void stop() {
    // the platform is shared by every test class of the run and stops with the JVM
  }
}
