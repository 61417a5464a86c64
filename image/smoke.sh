#!/usr/bin/env bash
# Starts the sidecar from its image (built by image/build.sh) and runs the demo's check through it: the real
# Keycloak, tenants and stub module of ./demo.sh, with the sidecar in a container instead of a JVM process.
# The container runs as the image's non-root user, on a read-only root file system (only /tmp is writable, as
# an emptyDir would be), with runc and cgroupfs (these machines' crun refuses their cgroup setup).
set -euo pipefail
cd "$(dirname "$0")/.."
. image/name.sh
. image/storage.sh image/smoke.sh "$@"
ensure_image "$IMAGE"
export DEMO_SIDECAR_COMMAND="podman --runtime runc --cgroup-manager=cgroupfs run --rm --network=host --env-host \
  --read-only -v /tmp:/tmp --cap-drop=ALL --security-opt=no-new-privileges \
  --ulimit nofile=20000:20000 --ulimit nproc=4096:4096 $IMAGE"
exec ./demo.sh --exit
