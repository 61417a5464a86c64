package org.folio.sidecar.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a span keeps of a URL: the parameter names of its query, never a value. */
class QueryValuesOutOfSpansTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', nullValues = "null", value = {
    "http://module:8081/items/1?token=abc&limit=5  | http://module:8081/items/1?token&limit",
    "/items?flag&query=a%3Db                       | /items?flag&query",
    "/items?=secret&&name=                         | /items?name",
    "/items?=secret                                | /items",
    "/items?                                       | /items",
    "http://h/p?a=1#frag=2                         | http://h/p?a",
    "http://module:8081/items/1                    | null",
  })
  void aUrlKeepsItsParameterNamesOnly(String url, String kept) {
    assertThat(QueryValuesOutOfSpans.withoutQueryValues(url)).isEqualTo(kept);
  }
}
