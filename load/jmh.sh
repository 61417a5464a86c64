#!/usr/bin/env bash
# Runs a JMH benchmark and prints ns/op and bytes/op: the decision cache's hit path by default, or the class named,
# e.g. load/jmh.sh org.folio.sidecar.forward.AccessLogBenchmark (the access line's rendering and hand-off).
set -euo pipefail
main=${1:-org.folio.sidecar.benchmark.DecisionCacheHitBenchmark}
exec "$(dirname "$0")/../scripts/run-main.sh" load "$main"
