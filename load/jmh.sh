#!/usr/bin/env bash
# Runs the JMH benchmarks (decision-cache hit path) and prints ns/op and bytes/op.
set -euo pipefail
exec "$(dirname "$0")/../scripts/run-main.sh" load org.folio.sidecar.benchmark.DecisionCacheHitBenchmark "$@"
