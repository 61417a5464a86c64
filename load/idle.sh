#!/usr/bin/env bash
# What one sidecar costs with no traffic: the demo's platform (real Keycloak and Kafka, stubbed module and managers),
# one packaged sidecar at a time on the image's JVM options, warm requests, a settling pause, then the CPU ticks of a
# quiet window for the process and per thread (/proc). Variants run interleaved (A, B, A, B). Writes
# load/results/<yyyyMMdd-HHmm>-idle/report.md.
#   load/idle.sh                      this build alone, 2 rounds, 30 s settling, 60 s measured
#   --jar-a JAR --jar-b JAR           two builds (a quarkus-run.jar each); --opts-a/--opts-b "JVM options" on top
#   --configs FILE                    one variant a line: `label: jar=PATH JVM options NAME=value variables`
#   --rounds N  --settle S  --seconds S  --warm-requests N  --out DIR
#   --profile                         then one more run per variant under async-profiler (CPU by thread)
set -euo pipefail
exec "$(dirname "$0")/../scripts/run-main.sh" load org.folio.sidecar.load.profile.IdleProfile "$@"
