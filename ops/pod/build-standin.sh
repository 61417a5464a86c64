#!/usr/bin/env bash
# Builds the stand-in for a FOLIO module image (ops/pod/Containerfile: busybox httpd answering the demo module's
# paths, and busybox wget for the module's own egress calls) as $STANDIN_IMAGE of image/name.sh, for
# ops/pod-smoke.sh and ops/chart-smoke.sh, on $BASE_IMAGE (image/base.sh). Needs root and podman.
set -euo pipefail
cd "$(dirname "$0")/../.."
. image/name.sh
. image/storage.sh ops/pod/build-standin.sh "$@"
PODMAN=(podman --runtime runc --cgroup-manager=cgroupfs)
if ! command -v busybox >/dev/null || ! busybox --list | grep -qx httpd; then
  echo "[pod] installing busybox-static"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq busybox-static >/dev/null
fi
image/base.sh
context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
cp "$(command -v busybox)" "$context/busybox"
printf 'root:x:0:0:root:/root:/bin/sh\nfolio:x:1000:1000:folio:/www:/usr/sbin/nologin\n' > "$context/passwd"
printf 'root:x:0:\nfolio:x:1000:\n' > "$context/group"
mkdir -p "$context/www/items" "$context/www/admin"
echo '{"module":"mod-items"}' > "$context/www/items/1"
echo '{"status":"UP"}' > "$context/www/admin/health"
"${PODMAN[@]}" build --quiet -f ops/pod/Containerfile --build-arg BASE="$BASE_IMAGE" -t "$STANDIN_IMAGE" "$context" >/dev/null
echo "[pod] module stand-in $STANDIN_IMAGE built"
