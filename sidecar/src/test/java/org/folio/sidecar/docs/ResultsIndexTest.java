package org.folio.sidecar.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every report kept in load/results can be found from its index, and every report the index links to is there:
 * a report nobody can find is as good as not kept, missed targets included (issue 42).
 */
class ResultsIndexTest {

  private static final Path RESULTS = Path.of("../load/results");
  private static final Pattern REPORT_LINK = Pattern.compile("\\]\\(([^)/]+)/report\\.md\\)");

  @Test
  void theIndexLinksEveryReportFolderAndNothingElse() throws IOException {
    var linked = new TreeSet<String>();
    var matcher = REPORT_LINK.matcher(Files.readString(RESULTS.resolve("index.md")));
    while (matcher.find()) {
      linked.add(matcher.group(1));
    }
    Set<String> folders;
    try (var entries = Files.list(RESULTS)) {
      folders = entries.filter(Files::isDirectory).map(p -> p.getFileName().toString())
        .collect(Collectors.toCollection(TreeSet::new));
    }
    assertThat(folders).as("report folders of load/results").isNotEmpty();
    assertThat(linked).as("folders load/results/index.md links to").containsExactlyElementsOf(folders);
    for (var folder : folders) {
      assertThat(RESULTS.resolve(folder).resolve("report.md")).as(folder + "'s report").isRegularFile();
    }
  }
}
