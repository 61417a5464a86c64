#!/usr/bin/env bash
# The live check of the names the alert rules (ops/prometheus) and the dashboard (ops/grafana) use: the demo's
# platform and sidecar, a real prometheus on loopback scraping its management port with the rules loaded, a
# little traffic including a Keycloak outage, then every selector, grouping label and rule checked through
# Prometheus' HTTP API, and no unbounded label (testkit LiveScrape). Measured 204-285 s, 377-508 s with
# --screenshot, on 2 cores shared with other builds (load average 12-28); its own timeout is 15 minutes.
#   ops/live-scrape.sh [--screenshot docs/images/dashboard-panels.png]
# Installs Debian's prometheus (and chromium for --screenshot) when missing; needs root for that.
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
command -v prometheus >/dev/null || need+=(prometheus)
if [ "${1:-}" = "--screenshot" ] && ! command -v chromium >/dev/null; then
  need+=(chromium)
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "[live-scrape] installing ${need[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
# its own bound, the build of the sidecar and testkit included; SIGTERM reaches prometheus, Keycloak and the
# sidecar through the JVM's shutdown hooks
status=0
timeout 900 scripts/run-main.sh testkit org.folio.sidecar.testkit.LiveScrape "$@" || status=$?
echo "[live-scrape] exit $status after $SECONDS s (the whole script)"
exit $status
