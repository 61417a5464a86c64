#!/usr/bin/env bash
# The image's vulnerability report, from what this machine can reach (Debian's package mirror, Maven Central):
#   image/scan.sh OS_SBOM MAVEN_SBOM REPORT.md
# No vulnerability database is reachable here: Debian's security tracker (debsecan's feed), the NVD (OWASP
# dependency-check's feed) and OSV are all outside the reachable registries, and no Debian or Maven Central package
# ships a database. So the report says what can be established:
#   - each Debian package of the image against the versions the apt mirror offers (bookworm, -updates, -security):
#     a newer version is a pending update (a security update when bookworm-security offers it; Debian fixes many
#     CVEs in point releases too); for each, the CVEs its Debian changelog
#     says it fixes since the image's version, with the changelog's urgency (Debian's own rating of the upload;
#     the tracker's per-CVE severity is not reachable), counted by urgency;
#   - the Maven components and the Java runtime: listed with their versions, not checked (no database).
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
maven=$(jq '[.components[] | select(.type == "library")] | length' "$maven_sbom")
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
  echo "**Java runtime** $java (jlink, from the build's JDK) and **$maven Maven components** (sidecar-maven.cdx.json):"
  echo "not checked. No vulnerability database for them is reachable here (OWASP dependency-check needs the NVD"
  echo "feed, OSV and the GitHub advisory database are not reachable, no Maven Central or Debian package ships one);"
  echo "feed the SBOMs to a scanner where one is (e.g. \`trivy sbom\`, \`grype sbom:\`, dependency-track)."
  echo
  echo "Run time: $(( $(date +%s) - started )) s."
} >"$report"
echo "[scan] $summary; Java runtime $java and $maven Maven components not checked (no database reachable);" \
  "report $report ($(( $(date +%s) - started )) s)"
