#!/usr/bin/env bash
# The classes a packaged sidecar loads, by dependency (kafka-clients, netty, vertx, quarkus, ..., JDK modules, the
# sidecar's own), once ready and after traffic, with a real Kafka broker and memory.sh's workload; beside them the
# metaspace (NMT) and RSS. Writes load/results/<yyyyMMdd-HHmm>-classes/report.md.
#   load/classes.sh                    the build in sidecar/target/quarkus-app
#   --before DIR [--after DIR]         two builds (quarkus-app directories) in one run, before then after
#   --users N  --fill-seconds S  --seconds S  --warm-up S  --idle-seconds S  --connections N  --out DIR
set -euo pipefail
exec "$(dirname "$0")/../scripts/run-main.sh" load org.folio.sidecar.load.profile.ClassHistogram "$@"
