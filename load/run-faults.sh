#!/usr/bin/env bash
# Faults under load: the circulation fleet (real Keycloak, in-process Kafka, a secure-store-proxy stub as the
# secret store) under steady check-out/check-in load while, one at a time, Keycloak, Kafka, a module, a sidecar,
# the secret store, an egress target and the managers' module lookup fail and come back, and bad Kafka records
# arrive. Loopback only; stops by itself.
#   load/run-faults.sh            default profile (8 tenants, time scale x0.25, about 20 minutes on 2 cores)
#   load/run-faults.sh --quick    4 tenants, x0.1, about 10 minutes
#   load/run-faults.sh --tiny     2 tenants, x0.05, about 6 minutes; add --check to fail on a missed target
#   --only abc                    only these scenarios (letters a-j)
#   --out DIR                     where the report goes (default load/results/faults-<timestamp>)
set -euo pipefail
cd "$(dirname "$0")/.."
exec scripts/run-main.sh load org.folio.sidecar.load.fault.FaultRun "$@"
