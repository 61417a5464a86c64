package org.folio.sidecar.forward;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The one path form that is routed, authorized and forwarded (issue 25, item 2). */
class RequestPathsTest {

  @ParameterizedTest
  @ValueSource(strings = {"/items/../loans", "/items/%2e%2e/loans", "/items/%2E%2e/loans", "/items/.%2E/loans",
    "/items/./loans", "/items/%2e/loans", "/items/..", "/items/.", "/..", "/items/..;/loans", "/items/1;jsessionid=x",
    "/items/a%2Fb", "/items/a%2fb", "/items/a%5cb", "/items/a\\b", "/items//loans", "//items", "/items/%00",
    "/items/%0a", "/items/a\tb", "/items/%3B", "/items/%zz", "/items/%4", "/items/%"})
  void pathsThatNormalizeToAnotherEndpointAreRefused(String path) {
    assertThat(RequestPaths.canonical(path)).isNull();
  }

  @ParameterizedTest
  @CsvSource({"/items/1,/items/1", "/items/,/items/", "/,/", "/.well-known/x,/.well-known/x", "/items/a.b,/items/a.b",
    "/items/..x,/items/..x", "/it%65ms/%41b,/items/Ab", "/items/%2e%2ex,/items/..x", "/items/%20x,/items/%20x",
    "/items/%C3%A9,/items/%C3%A9", "/items/%3F,/items/%3F", "/items/%7e,/items/~"})
  void everythingElseIsOneCanonicalPath(String path, String canonical) {
    assertThat(RequestPaths.canonical(path)).isEqualTo(canonical);
  }

  @ParameterizedTest
  @ValueSource(strings = {"/items/1", "/items/1/loans", "/a-b_c~d/e"})
  void anOrdinaryPathIsReturnedAsItIs(String path) {
    // the hot path: no copy when there is nothing to change
    assertThat(RequestPaths.canonical(path)).isSameAs(path);
  }
}
