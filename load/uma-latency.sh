#!/usr/bin/env bash
# Starts the test platform (real Keycloak, two realms) and measures the UMA decision call: p50/p95/p99.
set -euo pipefail
exec "$(dirname "$0")/../scripts/run-main.sh" load org.folio.sidecar.benchmark.UmaLatency "$@"
