package org.folio.sidecar.forward;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Item 3: Okapi's request id, {@code <6 digits>/<first segment>}, appended to the caller's with {@code ;}. */
class RequestIdsTest {

  @ParameterizedTest(name = "{0} + {1} -> {2}")
  @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
    null          | /circulation/check-out-by-barcode | \\d{6}/circulation
    null          | /_/tenant                         | \\d{6}/tenant
    null          | /_/proxy/tenants                  | \\d{6}/proxy
    null          | /items                            | \\d{6}/items
    null          | /                                 | \\d{6}/
    null          | /_                                | \\d{6}/_
    null          | /_foo/bar                         | \\d{6}/_foo
    ''            | /users/1                          | \\d{6}/users
    123456/items  | /users/1                          | 123456/items;\\d{6}/users
    1;2/a         | /b                                | 1;2/a;\\d{6}/b
    """)
  void requestIdIsOkapisFormat(String given, String path, String expected) {
    assertThat(RequestIds.next(given, path)).matches(expected);
  }

  @ParameterizedTest
  @CsvSource({"/items", "/_/tenant"})
  void digitsAreRandomPerHop(String path) {
    var ids = new java.util.HashSet<String>();
    for (int i = 0; i < 50; i++) {
      ids.add(RequestIds.next(null, path));
    }
    assertThat(ids).hasSizeGreaterThan(40);
  }
}
