#!/usr/bin/env bash
# Runs a command with a container storage of its own, empty at the start and removed at the end, so that no image
# left on the machine by an earlier run or by hand can stand in for one the run must build. Every script that
# builds or runs an image starts through it (image/storage.sh); .ci/run does, once for all its steps, which then
# share that storage. With SIDECAR_RUN_STORAGE already set, the caller's storage is used as it is.
#   image/with-storage.sh COMMAND [ARGS...]
set -uo pipefail
project=$(cd "$(dirname "$0")/.." && pwd)
dir=$project/target/containers/run-$$
mkdir -p "$dir"
printf '[storage]\ndriver = "overlay"\ngraphroot = "%s/graph"\nrunroot = "%s/run"\n' "$dir" "$dir" >"$dir/storage.conf"
export CONTAINERS_STORAGE_CONF=$dir/storage.conf SIDECAR_RUN_STORAGE=$dir
cleanup() {
  if command -v podman >/dev/null; then
    local p=(podman --runtime runc --cgroup-manager=cgroupfs)
    "${p[@]}" pod rm -af >/dev/null 2>&1
    "${p[@]}" rm -af >/dev/null 2>&1
    "${p[@]}" rmi -af >/dev/null 2>&1
  fi
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
"$@"
