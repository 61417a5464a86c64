#!/usr/bin/env bash
# Times the sidecar's start from its image against the demo's Keycloak, tenants and stub module (testkit
# StartTimes): "started in", and the time from `podman run` to the first 200 on /admin/health and to the first
# proxied 200, over N runs with median and range. Loopback only, bounded by its own timeout.
#   image/start-times.sh [--image NAME] [--runs N] [--traffic N] [--logs DIR]
# START_TIMES_PODMAN_OPTS adds options to `podman run` (image/build.sh's AOT training mounts its output so).
set -euo pipefail
cd "$(dirname "$0")/.."
. image/name.sh
. image/storage.sh image/start-times.sh "$@"
image=$IMAGE
args=()
while [ $# -gt 0 ]; do
  case $1 in
    --image) image=$2; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
ensure_image "$image"
export DEMO_SIDECAR_COMMAND="podman --runtime runc --cgroup-manager=cgroupfs run --rm --network=host --env-host \
  --read-only -v /tmp:/tmp --cap-drop=ALL --security-opt=no-new-privileges \
  --ulimit nofile=20000:20000 --ulimit nproc=4096:4096 ${START_TIMES_PODMAN_OPTS:-} $image"
echo "[start] $image, uptime:$(uptime | sed 's/.*load/ load/')"
exec timeout 900 scripts/run-main.sh testkit org.folio.sidecar.testkit.StartTimes "${args[@]}"
