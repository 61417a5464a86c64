#!/usr/bin/env bash
# The Maven components' part of the image's vulnerability report (image/scan.sh), by the first scanner installed:
#   image/scan-maven.sh MAVEN_SBOM SECTION.md
# writes the report's section to SECTION.md and its one-line summary to standard output. Trivy (`trivy sbom`),
# Grype (`grype sbom:`) and osv-scanner (`--sbom`) each read the CycloneDX SBOM and check it against their own
# database, which they fetch from outside the registries this project's machines reach (Maven Central, Debian's
# mirror, npm) and no package of those ships one. So where no scanner is installed, or the one installed cannot get
# its database, the section says "not checked" and why, rather than a clean result nobody established. Like the
# rest of the report it never fails the build.
set -euo pipefail
sbom=$1
section=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
count() { [ "$1" = 1 ] && echo "1 $2" || echo "$1 $3"; }
components=$(count "$(jq '[.components[] | select(.type == "library")] | length' "$sbom")" "Maven component" \
  "Maven components")
what="**$components** ($(basename "$sbom"))"

# each scanner's findings as TSV lines: component, version, vulnerability, severity, fixed in
scanned() {
  case $1 in
    trivy)
      trivy sbom --quiet --format json --output "$work/out.json" "$sbom" 2>"$work/err" &&
        jq -r '.Results[]?.Vulnerabilities[]? | [.PkgName, .InstalledVersion, .VulnerabilityID,
          (.Severity // "unknown"), (.FixedVersion // "")] | @tsv' "$work/out.json" ;;
    grype)
      grype "sbom:$sbom" --quiet --output json --file "$work/out.json" 2>"$work/err" &&
        jq -r '.matches[]? | [.artifact.name, .artifact.version, .vulnerability.id,
          (.vulnerability.severity // "unknown"), ((.vulnerability.fix.versions // []) | join(" "))] | @tsv' \
          "$work/out.json" ;;
    osv-scanner)
      # exit 1 means vulnerabilities found; only an answer it could not give is a failure
      local status=0
      osv-scanner --format json --sbom "$sbom" >"$work/out.json" 2>"$work/err" || status=$?
      [ "$status" -le 1 ] &&
        jq -r '.results[]?.packages[]? | .package as $p | .vulnerabilities[]? | [$p.name, $p.version, .id,
          (.database_specific.severity // "unknown"), ""] | @tsv' "$work/out.json" ;;
  esac
}

version_of() {
  case $1 in
    trivy) trivy --version 2>/dev/null | sed -n 's/^Version: *//p' ;;
    grype) grype version 2>/dev/null | sed -n 's/^Version: *//p' ;;
    osv-scanner) osv-scanner --version 2>/dev/null | sed -n 's/.*version: *//p' | head -n 1 ;;
  esac
}

scanner=""
for candidate in trivy grype osv-scanner; do
  if command -v "$candidate" >/dev/null 2>&1; then
    scanner=$candidate
    break
  fi
done

if [ -z "$scanner" ]; then
  summary="$components not checked (no scanner installed)"
  {
    echo "$what: not checked. No scanner is installed here (looked for trivy, grype and osv-scanner on the PATH;"
    echo "none is a package of Debian's mirror or Maven Central), and none could get its vulnerability database here"
    echo "anyway. Where one is: \`trivy sbom sidecar-maven.cdx.json\`, \`grype sbom:sidecar-maven.cdx.json\` or"
    echo "\`osv-scanner --sbom sidecar-maven.cdx.json\`; image/build.sh runs the first one installed."
  } >"$section"
  echo "$summary"
  exit 0
fi

name="$scanner $(version_of "$scanner")"
name=${name% }
if ! scanned "$scanner" >"$work/findings.tsv"; then
  reason=$(grep -v '^[[:space:]]*$' "$work/err" 2>/dev/null | tail -n 1 | cut -c1-300 | tr '`|' "'/" || true)
  summary="$components not checked ($name could not check them)"
  {
    echo "$what: not checked. $name is installed but did not answer: \`${reason:-no message}\`. Its vulnerability"
    echo "database comes from outside the registries this machine reaches (Maven Central, Debian's mirror, npm);"
    echo "run it where the database is reachable."
  } >"$section"
  echo "$summary"
  exit 0
fi

sort -u "$work/findings.tsv" -o "$work/findings.tsv"
findings=$(grep -c . "$work/findings.tsv" || true)
affected=$(cut -f1,2 "$work/findings.tsv" | sort -u | grep -c . || true)
# counted by severity, the gravest first
by_severity=$(cut -f4 "$work/findings.tsv" | tr '[:upper:]' '[:lower:]' | sort | uniq -c |
  awk '{r["critical"] = 1; r["high"] = 2; r["medium"] = 3; r["moderate"] = 3; r["low"] = 4
    printf "%d\t%s %d\n", r[$2] ? r[$2] : 5, $2, $1}' |
  sort -n | cut -f2 | paste -sd, - | sed 's/,/, /g')
found="$(count "$findings" vulnerability vulnerabilities) in $(count "$affected" component components)"
summary="$components checked by $name: $found${by_severity:+ ($by_severity)}"
{
  echo "$what: checked by $name against its own database: $found${by_severity:+ ($by_severity)}."
  if [ "$findings" -gt 0 ]; then
    echo
    echo "| component | version | vulnerability | severity | fixed in |"
    echo "| --- | --- | --- | --- | --- |"
    awk -F'\t' '{printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, tolower($4), $5}' "$work/findings.tsv"
  fi
} >"$section"
echo "$summary"
