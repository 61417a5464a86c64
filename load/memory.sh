#!/usr/bin/env bash
# The sidecar's memory under each of a list of JVM configurations, the same workload for each (a cache-filling
# phase, then the hit path): RSS after start, at idle, peak, after a full GC; live heap; threads; NMT by category;
# latency, CPU per 1,000 requests, requests/s. One table in load/results/<yyyyMMdd-HHmm>-memory/measurements.md.
#   load/memory.sh          the built-in list (MemoryProfile.DEFAULT_CONFIGS), 20,000 users, 40-s fill, 15-s hit path
#   --configs FILE          one configuration a line: `label: JVM options and NAME=value variables`
#   --users N  --fill-seconds S  --seconds S  --warm-up S  --idle-seconds S  --connections N  --out DIR
set -euo pipefail
exec "$(dirname "$0")/../scripts/run-main.sh" load org.folio.sidecar.load.profile.MemoryProfile "$@"
