#!/usr/bin/env bash
# System calls, CPU and requests/s per proxied request: packaged sidecars (one per --variant) and nginx in front of
# the same stub, system calls per request by name (perf trace -s, or strace -c -f, over a fixed number of
# keep-alive GETs answered with a Content-Length and chunked), then CPU per 1,000 requests and requests/s
# interleaved (each variant, nginx; again).
#   load/syscalls.sh                    this build's sidecar against nginx
#   --variant 'LABEL: JAR [JVM option...] [NAME=value...]'   repeatable, e.g. a copied build before a change:
#       --variant 'before: /tmp/before/quarkus-run.jar' --variant 'after: sidecar/target/quarkus-app/quarkus-run.jar'
#   --tracer perf|strace (perf: tracepoints, far less overhead)  --requests N (20000 per traced column)
#   --traced-connections 16,64  --connections 64  --seconds 15
#   --rounds 2  --warm-up 20  --out DIR (default load/results/<yyyyMMdd-HHmm>-syscalls)
set -euo pipefail
exec "$(dirname "$0")/../scripts/run-main.sh" load org.folio.sidecar.load.profile.HopSyscalls "$@"
