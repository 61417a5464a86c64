#!/usr/bin/env bash
# The A/B load run: baseline (upstream-like cache) against optimized, on one machine, loopback only.
#   load/run-ab.sh            default run (60 tenants, about 10 minutes on 2 cores)
#   load/run-ab.sh --quick    16 tenants, about 3 minutes
#   load/run-ab.sh --tiny     CI's smoke run; add --check to fail unless both variants ran without errors
#   --baseline-cmd "java -jar /path/to/quarkus-run.jar"   any sidecar build as the baseline
#   --out DIR                 where the report goes (default load/results/<timestamp>)
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -B -f load/gatling/pom.xml test-compile
# nginx is the yardstick of the hit-path overhead; without it that row reads "not run"
if ! [ -x /usr/sbin/nginx ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light) >/dev/null 2>&1 \
    || echo "nginx could not be installed: the overhead table will have no nginx row"
fi
exec scripts/run-main.sh load org.folio.sidecar.load.AbRun "$@"
