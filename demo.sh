#!/usr/bin/env bash
# Runs the demo: real Keycloak with two tenants, a stub module and the sidecar. `./demo.sh --exit` stops after
# printing and checking the allowed and the denied curl.
set -euo pipefail
exec "$(dirname "$0")/scripts/run-main.sh" testkit org.folio.sidecar.testkit.Demo "$@"
