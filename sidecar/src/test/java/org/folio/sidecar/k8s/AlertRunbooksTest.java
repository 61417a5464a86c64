package org.folio.sidecar.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.folio.sidecar.support.Manifests;
import org.folio.sidecar.support.ProjectHome;
import org.junit.jupiter.api.Test;

/**
 * What an on-call person gets with every alert: a summary, a description, and a runbook_url whose section exists in
 * docs/runbooks.md, with the four parts each section promises (symptom, check, action, verify).
 */
class AlertRunbooksTest {

  private static final Path RULES = Path.of("../ops/prometheus/sidecar-rules.yaml");
  private static final Path RUNBOOKS = Path.of("../docs/runbooks.md");

  @Test
  void everyAlertHasSummaryDescriptionAndARunbookSectionThatExists() throws IOException {
    var runbooks = Files.readString(RUNBOOKS);
    var anchors = anchors(runbooks);
    var alerts = alerts();
    assertThat(alerts).isNotEmpty();
    for (var alert : alerts) {
      var name = String.valueOf(alert.get("alert"));
      @SuppressWarnings("unchecked")
      var annotations = (Map<String, Object>) alert.get("annotations");
      assertThat(annotations).as(name).containsKeys("summary", "description", "runbook_url");
      assertThat(String.valueOf(annotations.get("description"))).as(name).isNotBlank();
      var url = String.valueOf(annotations.get("runbook_url"));
      assertThat(url).as(name + "'s runbook_url, under build-config/project.env's PROJECT_URL")
        .startsWith(ProjectHome.url(Path.of("..")) + "/blob/main/docs/runbooks.md#");
      var anchor = url.substring(url.indexOf('#') + 1);
      assertThat(anchors).as(name + "'s runbook section").contains(anchor);
      var section = section(runbooks, name);
      assertThat(section).as(name + "'s section").contains("**Symptom**", "**Check**", "**Action**", "**Verify**");
    }
  }

  @Test
  void theRevokeRunbookExists() throws IOException {
    assertThat(anchors(Files.readString(RUNBOOKS))).contains("revoke-a-permission-now");
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> alerts() {
    var document = Manifests.documents(RULES).get(0);
    var alerts = new ArrayList<Map<String, Object>>();
    for (var group : (List<Map<String, Object>>) document.get("groups")) {
      alerts.addAll((List<Map<String, Object>>) group.get("rules"));
    }
    return alerts;
  }

  /** GitHub's anchors of the Markdown headings: lower case, spaces to dashes, other punctuation dropped. */
  static Set<String> anchors(String markdown) {
    return markdown.lines().filter(line -> line.startsWith("#")).map(line -> line.replaceFirst("^#+\\s*", ""))
      .map(heading -> heading.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9 _-]", "").replace(' ', '-'))
      .collect(Collectors.toSet());
  }

  private static String section(String markdown, String heading) {
    int start = markdown.indexOf("\n## " + heading + "\n");
    assertThat(start).as("section ## " + heading).isNotNegative();
    int end = markdown.indexOf("\n## ", start + 1);
    return markdown.substring(start, end < 0 ? markdown.length() : end);
  }
}
