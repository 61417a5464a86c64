package org.folio.sidecar.testkit;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.matching.RequestPatternBuilder;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import java.util.List;

/** The WireMock server playing the module, reached through WireMock's admin API from any class loader. */
public final class ModuleStub {

  private final WireMock client;
  private final String baseUrl;

  public ModuleStub(int port) {
    this.client = new WireMock("127.0.0.1", port);
    this.baseUrl = "http://127.0.0.1:" + port;
  }

  public String baseUrl() {
    return baseUrl;
  }

  public void stubFor(MappingBuilder mapping) {
    client.register(mapping);
  }

  public void verify(RequestPatternBuilder pattern) {
    client.verifyThat(pattern);
  }

  public void verify(int count, RequestPatternBuilder pattern) {
    client.verifyThat(count, pattern);
  }

  public List<LoggedRequest> findAll(RequestPatternBuilder pattern) {
    return client.find(pattern);
  }

  public void resetRequests() {
    client.resetRequests();
  }

  /**
   * Back to {@code defaults} with no requests recorded. The defaults are registered before the old mappings go,
   * so the sidecar's background health probe never meets a moment without them (a 404 there makes it unready).
   */
  public void resetTo(List<MappingBuilder> defaults) {
    var old = client.allStubMappings().getMappings();
    defaults.forEach(client::register);
    old.forEach(client::removeStubMapping);
    client.resetRequests();
  }
}
