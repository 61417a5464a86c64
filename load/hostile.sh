#!/usr/bin/env bash
# Hostile callers beside a control (issue 43, targets 2, 3 and 6): two sidecars of this build on the real Keycloak,
# one attacked (500 slow readers over HTTP/1.1 and over HTTP/2; a dead-session flood over 1,100 connections; tokens
# naming made-up realms from one address with the entitlement check off) while another tenant's user is served by
# both at once. Loopback only; about 8 minutes; stops what it started.
#   load/hostile.sh [--out DIR]        report in load/results/<timestamp>-hostile (default)
set -euo pipefail
exec "$(dirname "$0")/../scripts/run-main.sh" load org.folio.sidecar.load.hostile.HostileRun "$@"
