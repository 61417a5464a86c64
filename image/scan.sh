#!/usr/bin/env bash
# The image's vulnerability report, from what this machine can reach (Debian's package mirror, Maven Central):
#   image/scan.sh OS_SBOM MAVEN_SBOM REPORT.md
# No vulnerability database is reachable here: Debian's security tracker (debsecan's feed), the NVD (OWASP
# dependency-check's feed), OSV and the scanners' own databases are all outside the reachable registries, and no
# Debian or Maven Central package ships a database. So the report says what can be established:
#   - each Debian package of the image against the versions the apt mirror offers (bookworm, -updates, -security):
#     a newer version is a pending update (a security update when bookworm-security offers it; Debian fixes many
#     CVEs in point releases too); for each, the CVEs its Debian changelog
#     says it fixes since the image's version, with the changelog's urgency (Debian's own rating of the upload;
#     the tracker's per-CVE severity is not reachable), counted by urgency;
#   - the Maven components: checked by the first scanner installed (trivy, grype, osv-scanner:
#     image/scan-maven.sh) where it gets its database; else "not checked" and why;
#   - the Java runtime: listed with its version, not checked (no scanner matches a runtime cut from a JDK).
# It reports and never fails the build: a pending update is fixed by rebuilding (mmdebstrap takes the newest).
set -euo pipefail
os_sbom=$1
maven_sbom=$2
report=$3
started=$(date +%s)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# fresh package lists; another apt run on the machine may hold the lock: then the lists are those of the last update
lists="updated now"
if ! apt-get update -qq >/dev/null 2>&1; then
  lists="not updated (apt's lock was held), as of $(date -u -r /var/lib/apt/lists +%Y-%m-%dT%H:%MZ)"
fi

rows=""
pending=0
security=0
declare -A by_urgency=()
cves_all=""
while IFS=$'\t' read -r name version; do
  candidate=$(apt-cache policy "$name" 2>/dev/null | sed -n 's/^  Candidate: //p')
  if [ -z "$candidate" ] || [ "$candidate" = "(none)" ]; then
    rows+="| $name | $version | not in the mirror | |"$'\n'
    continue
  fi
  if ! dpkg --compare-versions "$candidate" gt "$version"; then
    rows+="| $name | $version | up to date | |"$'\n'
    continue
  fi
  # which suites offer the candidate: a -security one makes it a security update
  suites=$(apt-cache madison "$name" | awk -F'|' -v v=" $candidate " '$2 == v {split($3, f, " "); print f[2]}' |
    sed 's:/.*::' | sort -u | tr '\n' ' ')
  kind="update ($suites)"
  cves=""
  urgency=""
  if (cd "$work" && apt-get download -qq "$name=$candidate" >/dev/null 2>&1); then
    deb=$(ls "$work"/"${name}"_*.deb | head -n 1)
    mkdir -p "$work/x" && dpkg-deb -x "$deb" "$work/x"
    changelog=$(ls "$work"/x/usr/share/doc/"$name"/changelog.Debian.gz 2>/dev/null | head -n 1 || true)
    if [ -n "$changelog" ]; then
      # the entries after the image's version: from the top down to the image's version's header
      entries=$(zcat "$changelog" | awk -v v="($version)" 'index($0, v) && /^[^ ]/ {done = 1} !done {print}')
      cves=$(grep -o 'CVE-[0-9]\{4\}-[0-9]\{4,\}' <<<"$entries" | sort -u | tr '\n' ' ' || true)
      urgency=$(grep -o 'urgency=[a-z]*' <<<"$entries" | sed 's/urgency=//' | sort -u | tr '\n' ' ' || true)
    fi
    rm -rf "$work/x" "$deb"
  fi
  pending=$((pending + 1))
  for cve in $cves; do
    cves_all+="$cve "
  done
  top=$(tr ' ' '\n' <<<"$urgency" | grep -E '^(emergency|critical|high|medium|low)$' |
    awk '{r["emergency"]=5;r["critical"]=4;r["high"]=3;r["medium"]=2;r["low"]=1; if (r[$1]>m) {m=r[$1]; t=$1}} END {print t}' ||
    true)
  by_urgency[${top:-unknown}]=$(( ${by_urgency[${top:-unknown}]:-0} + $(wc -w <<<"$cves") ))
  case $suites in
    *security*) kind="security update ($suites)"; security=$((security + 1)) ;;
  esac
  rows+="| $name | $version | $kind $candidate | ${cves:-none named} ${urgency:+(urgency $urgency)} |"$'\n'
done < <(jq -r '.components[] | select(.purl | startswith("pkg:deb/")) | [.name, .version] | @tsv' "$os_sbom")

cve_count=$(tr ' ' '\n' <<<"$cves_all" | grep -c CVE || true)
summary="pending updates: $pending package(s) ($security from bookworm-security), $cve_count CVE(s) named in their changelogs"
for urgency in emergency critical high medium low unknown; do
  [ -n "${by_urgency[$urgency]:-}" ] && summary+=", $urgency ${by_urgency[$urgency]}"
done
java=$(jq -r '.components[] | select(.name == "jlink runtime") | .version' "$os_sbom")
maven=$("$(dirname "$0")/scan-maven.sh" "$maven_sbom" "$work/maven.md")
{
  echo "# Vulnerability report of the image"
  echo
  echo "Made by image/scan.sh on $(date -u +%Y-%m-%dT%H:%MZ); apt package lists $lists."
  echo
  echo "**Debian packages** ($summary). CVE counts are by the Debian changelog's urgency of the fixing upload;"
  echo "per-CVE severities (Debian's security tracker, the NVD) are not reachable from this machine."
  echo
  echo "| package | in the image | mirror offers | CVEs fixed since the image's version |"
  echo "| --- | --- | --- | --- |"
  printf '%s' "$rows"
  echo
  cat "$work/maven.md"
  echo
  echo "**Java runtime** $java (jlink, from the build's JDK): not checked. The scanners match packages of an"
  echo "ecosystem (Maven, Debian), not a runtime cut from a JDK; compare its version with the JDK's latest quarterly"
  echo "update."
  echo
  echo "Run time: $(( $(date +%s) - started )) s."
} >"$report"
echo "[scan] $summary; $maven; Java runtime $java not checked; report $report ($(( $(date +%s) - started )) s)"
