#!/usr/bin/env bash
# The A/B load run: baseline (upstream-like cache) against optimized, on one machine, loopback only.
#   load/run-ab.sh            default run (60 tenants, about 18 minutes on 2 cores)
#   load/run-ab.sh --quick    16 tenants, about 6 minutes
#   load/run-ab.sh --tiny     CI's smoke run; add --check to fail unless both variants ran without errors
#   --time-scale F            every time constant x F (1: production time, 600-s tokens, 30 minutes per run)
#   --runs 2|4                baseline, optimized (2) or baseline, optimized, optimized, baseline (4, the default)
#   --baseline-cmd "java -jar /path/to/quarkus-run.jar"   any sidecar build as the baseline
#   --baseline-defaults FILE  that build's production time constants (load/baselines/upstream-v4.0.3.properties)
#   --scenario sip2           each transaction a fresh login (password grant, the users in turn), then a patron look-up,
#                             a check-out and a check-in: decision calls per transaction, the first request after the
#                             login, the decision cache's entries (issue 45); not with --check (no import traffic)
#   --out DIR                 where the report goes (default load/results/<timestamp>)
#   --fleet-restart           a platform upgrade: each optimized run's whole fleet restarts at the workload's midpoint
#                             (quick: 20 s past the first refresh period), stop all, start fresh on the same ports; those
#                             runs' workload runs 180 s longer; the report's "Fleet restart" section
#   --optimized-env-1 K=V,..  variables for the first optimized run's fleet only (e.g. a limit off, to compare restarts)
#   --jvm-sets FILE           no baseline: the optimized fleet under each JVM option set of FILE (`label: options
#                             NAME=value`, `$IMAGE` = the image's options), in order then reversed (--runs 4), compared
#                             with the first set against issue 38's targets
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -B -f load/gatling/pom.xml test-compile
# nginx is the yardstick of the hit-path overhead, wrk drives its closed loop; without them those rows read "not run"
need=()
[ -x /usr/sbin/nginx ] || need+=(nginx-light)
command -v wrk >/dev/null || need+=(wrk)
if [ ${#need[@]} -gt 0 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}") >/dev/null 2>&1 \
    || echo "${need[*]} could not be installed: the hit-path tables will miss those rows"
fi
exec scripts/run-main.sh load org.folio.sidecar.load.ab.AbRun "$@"
