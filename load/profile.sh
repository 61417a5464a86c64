#!/usr/bin/env bash
# The hit path under async-profiler: one packaged sidecar with a warm decision cache, wrk's closed loop against it,
# the sidecar's CPU and bytes per request beside nginx and the stub, then CPU, allocation and wall flame graphs.
#   load/profile.sh                     2-ms stub and instant stub, 64 connections, 15 s per figure, 40 s warm-up
#   --stub-millis 2|0|2,0  --connections N  --seconds S  --warm-up S  --out DIR   (default load/results/<timestamp>-profile)
set -euo pipefail
exec "$(dirname "$0")/../scripts/run-main.sh" load org.folio.sidecar.load.profile.HitPathProfile "$@"
