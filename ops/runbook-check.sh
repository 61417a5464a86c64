#!/usr/bin/env bash
# Every command of the `sh runbook-check` blocks of docs/runbooks.md and docs/operations.md run against the demo
# (testkit RunbookCheck: the platform and sidecar ./demo.sh starts, on loopback), each asserted to exit 0 and to
# print what its `# prints:` lines say; those that need Kubernetes are listed as skipped. A runbook citing a line,
# metric or endpoint the sidecar does not have fails it. Bounded by its own timeout (runs here: 74-287 s, the build
# included); SIGTERM reaches Keycloak, Kafka and the sidecar through the JVM's shutdown hooks.
#   ops/runbook-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
timeout 900 scripts/run-main.sh testkit org.folio.sidecar.testkit.RunbookCheck || status=$?
echo "[runbook-check] exit $status after $SECONDS s (the whole script)"
exit $status
