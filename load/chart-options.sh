#!/usr/bin/env bash
# Peak RSS of the sidecar's image under folio-helm-v2's options (issue 38 item 2): one container per option set with
# the chart's 256 MiB limit, the chart's JAVA_OPTS and body limit, idle, then bursts of concurrent 9-MiB uploads
# through the sidecar to the demo's stub module (testkit). Loopback only, bounded (its own 30-minute timeout).
#   load/chart-options.sh [--uploads 100] [--size-mb 9] [--bursts 3] [--idle-seconds 10] [--sets 1,2,3,4] [--out DIR]
# Sets (ChartOptionsBurst): 1 the chart's JAVA_OPTS + the image's floor, 2 without the floor, 3 with
# JAVA_OPTS_APPEND=-XX:TieredStopAtLevel=1 and MALLOC_ARENA_MAX=2, 4 the image's own options. Figures in
# DIR/measurements-<sets>.md (default target/chart-options).
set -euo pipefail
cd "$(dirname "$0")/.."
. image/name.sh
. image/storage.sh load/chart-options.sh "$@"
ensure_image "$IMAGE"
export SIDECAR_CONTAINER=sidecar-chart-options-$$
export DEMO_SIDECAR_COMMAND="podman --runtime runc --cgroup-manager=cgroupfs run --replace --name $SIDECAR_CONTAINER \
  --network=host --env-host --read-only -v /tmp:/tmp --cap-drop=ALL --security-opt=no-new-privileges \
  --memory=256m --memory-swap=256m --ulimit nofile=20000:20000 --ulimit nproc=4096:4096 $IMAGE"
trap 'podman --runtime runc --cgroup-manager=cgroupfs rm -f "$SIDECAR_CONTAINER" >/dev/null 2>&1 || true' EXIT
echo "[chart-options] $IMAGE, uptime:$(uptime | sed 's/.*load/ load/')"
timeout 1800 scripts/run-main.sh load org.folio.sidecar.load.profile.ChartOptionsBurst "$@"
