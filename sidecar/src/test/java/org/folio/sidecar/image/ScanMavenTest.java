package org.folio.sidecar.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Maven part of the image's vulnerability report (image/scan-maven.sh, run by image/scan.sh) with a PATH that
 * holds only the tools it needs and, per case, a stand-in scanner that answers as the real one does: no scanner
 * and a scanner without its database say "not checked" and why; a scanner's findings are counted and listed,
 * osv-scanner's exit 1 (vulnerabilities found) included.
 */
class ScanMavenTest {

  private static final Path SCRIPT = Path.of("../image/scan-maven.sh").toAbsolutePath().normalize();
  private static final List<String> TOOLS = List.of("bash", "jq", "sed", "awk", "sort", "uniq", "cut", "tr", "grep",
    "paste", "mktemp", "rm", "basename", "tail", "head", "cat");

  @TempDir
  Path work;

  private Path bin;
  private Path sbom;

  private record Scan(int exit, String summary, String section) {
  }

  @BeforeEach
  void pathWithoutScanners() throws IOException {
    bin = Files.createDirectories(work.resolve("bin"));
    for (var tool : TOOLS) {
      var found = List.of(Path.of("/usr/bin", tool), Path.of("/bin", tool)).stream().filter(Files::isExecutable)
        .findFirst().orElseThrow(() -> new IllegalStateException(tool + " not installed"));
      Files.createSymbolicLink(bin.resolve(tool), found);
    }
    sbom = work.resolve("sidecar-maven.cdx.json");
    Files.writeString(sbom, """
      {"bomFormat": "CycloneDX", "specVersion": "1.6", "components": [
        {"type": "library", "name": "vertx-core", "version": "4.5.22"},
        {"type": "library", "name": "netty-codec-http2", "version": "4.1.128.Final"},
        {"type": "library", "name": "caffeine", "version": "3.2.3"}]}
      """);
  }

  private void scanner(String name, String script) throws IOException {
    var path = bin.resolve(name);
    Files.writeString(path, "#!/bin/bash\n" + script);
    Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private Scan scan() throws IOException, InterruptedException {
    var section = work.resolve("maven.md");
    var process = new ProcessBuilder(bin.resolve("bash").toString(), SCRIPT.toString(), sbom.toString(),
      section.toString()).redirectErrorStream(true);
    process.environment().put("PATH", bin.toString());
    var started = process.start();
    var output = new String(started.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(started.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Scan(started.exitValue(), output, Files.exists(section) ? Files.readString(section) : "");
  }

  @Test
  void withoutAScannerTheComponentsAreNotCheckedAndTheSectionSaysWhy() throws Exception {
    var scan = scan();

    assertThat(scan.exit()).isZero();
    assertThat(scan.summary()).isEqualTo("3 Maven components not checked (no scanner installed)");
    assertThat(scan.section()).startsWith("**3 Maven components** (sidecar-maven.cdx.json): not checked. No scanner "
      + "is installed here (looked for trivy, grype and osv-scanner on the PATH;");
  }

  @Test
  void aScannerWithoutItsDatabaseIsNotACleanResult() throws Exception {
    scanner("grype", """
      if [ "$1" = version ]; then echo "Application: grype"; echo "Version:  0.121.2"; exit 0; fi
      echo "[0000] ERROR failed to load vulnerability db: unable to update vulnerability database: \
      Get \\"https://grype.anchore.io/databases/v6/latest.json\\": dial tcp: lookup grype.anchore.io: no such host" >&2
      exit 1
      """);

    var scan = scan();

    assertThat(scan.exit()).isZero();
    assertThat(scan.summary()).isEqualTo("3 Maven components not checked (grype 0.121.2 could not check them)");
    assertThat(scan.section()).startsWith("**3 Maven components** (sidecar-maven.cdx.json): not checked. grype "
      + "0.121.2 is installed but did not answer: `[0000] ERROR failed to load vulnerability db:")
      .contains("Its vulnerability\ndatabase comes from outside the registries this machine reaches");
  }

  @Test
  void aScannersFindingsAreCountedBySeverityAndListed() throws Exception {
    scanner("trivy",
      """
        if [ "$1" = --version ]; then echo "Version: 0.74.0"; exit 0; fi
        while [ $# -gt 0 ]; do [ "$1" = --output ] && out=$2; shift; done
        cat >"$out" <<'JSON'
        {"Results": [{"Target": "sidecar-maven.cdx.json", "Vulnerabilities": [
          {"PkgName": "io.netty:netty-codec-http2", "InstalledVersion": "4.1.128.Final", "VulnerabilityID": "CVE-2099-0001",
           "Severity": "HIGH", "FixedVersion": "4.1.129.Final"},
          {"PkgName": "io.netty:netty-codec-http2", "InstalledVersion": "4.1.128.Final", "VulnerabilityID": "CVE-2099-0002",
           "Severity": "CRITICAL", "FixedVersion": "4.1.129.Final"},
          {"PkgName": "io.vertx:vertx-core", "InstalledVersion": "4.5.22", "VulnerabilityID": "GHSA-xxxx-yyyy-zzzz",
           "Severity": "LOW"}]}]}
        JSON
        """);

    var scan = scan();

    assertThat(scan.exit()).isZero();
    assertThat(scan.summary()).isEqualTo("3 Maven components checked by trivy 0.74.0: 3 vulnerabilities in 2 "
      + "components (critical 1, high 1, low 1)");
    assertThat(scan.section()).contains("| component | version | vulnerability | severity | fixed in |",
      "| io.netty:netty-codec-http2 | 4.1.128.Final | CVE-2099-0002 | critical | 4.1.129.Final |",
      "| io.vertx:vertx-core | 4.5.22 | GHSA-xxxx-yyyy-zzzz | low |  |");
  }

  @Test
  void osvScannersExitOneIsItsFindingsNotAFailure() throws Exception {
    scanner("osv-scanner", """
      if [ "$1" = --version ]; then echo "osv-scanner version: 2.2.4"; exit 0; fi
      echo '{"results": [{"packages": [{"package": {"name": "io.vertx:vertx-core", "version": "4.5.22"},
        "vulnerabilities": [{"id": "GHSA-xxxx-yyyy-zzzz", "database_specific": {"severity": "MODERATE"}}]}]}]}'
      exit 1
      """);

    var scan = scan();

    assertThat(scan.summary()).isEqualTo("3 Maven components checked by osv-scanner 2.2.4: 1 vulnerability in 1 "
      + "component (moderate 1)");
    assertThat(scan.section()).contains("| io.vertx:vertx-core | 4.5.22 | GHSA-xxxx-yyyy-zzzz | moderate |  |");
  }
}
