package org.folio.sidecar.load.fleet;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One configuration of a sidecar process, as the harnesses' option files write it ({@code label: options
 * NAME=value}): a label, JVM options, and variables ({@code NAME=value} words) for the sidecar; the word
 * {@code $IMAGE} stands for the image's options ({@link ShippedJvmOptions}).
 */
public record SidecarConfig(String label, List<String> jvmOptions, Map<String, String> env) {

  public static SidecarConfig parse(String written) {
    var line = written.replace("$IMAGE", ShippedJvmOptions.line());
    int colon = line.indexOf(':');
    var options = new ArrayList<String>();
    var env = new LinkedHashMap<String, String>();
    for (var word : line.substring(colon + 1).trim().split("\\s+")) {
      if (!word.startsWith("-") && word.contains("=")) {
        env.put(word.substring(0, word.indexOf('=')), word.substring(word.indexOf('=') + 1));
      } else if (!word.isEmpty()) {
        options.add(word);
      }
    }
    return new SidecarConfig(line.substring(0, colon).trim(), options, env);
  }

  public String describe() {
    var words = new ArrayList<>(jvmOptions);
    env.forEach((name, value) -> words.add(name + "=" + value));
    return String.join(" ", words);
  }
}
