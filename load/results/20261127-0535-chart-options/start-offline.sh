#!/usr/bin/env bash
# "started in" from the image under the four option sets, interleaved (set 0, 1, 2, 3, 0, ...), RUNS starts each:
#   0 the image's options + app-serial.aot   1 the image's options, JAVA_AOT_OPTS= (no cache)
#   2 folio-helm-v2's JAVA_OPTS + app-zgc.aot 3 folio-helm-v2's JAVA_OPTS, no cache
# Each container has no network (the platform calls fail and are retried; SIDECAR_STARTUP_WAIT=0s, so "started
# in" is the JVM's and Quarkus' start without waiting for them;
# start, before any of them answers), read-only, non-root, the chart's 256 MiB limit. The lines of each start up to
# "started in" that say [error], [warning], WARN or "VM warning" are counted. From the project's root:
#   load/results/<this>/start-offline.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../../.."
here=$(dirname "$0")
. image/name.sh
chart=$(sed -n 's/^JAVA_OPTS=//p' k8s/folio-helm-v2-sidecar.env)
PODMAN=(podman --runtime runc --cgroup-manager=cgroupfs)
name=sidecar-start-offline-$$
trap '"${PODMAN[@]}" rm -f "$name" >/dev/null 2>&1 || true' EXIT
mkdir -p "$here/start-logs"
echo "[start-offline] $IMAGE, uptime:$(uptime | sed 's/.*load/ load/')"
for run in $(seq "${1:-3}"); do
  for set in 0 1 2 3; do
    env=(-e MODULE_NAME=mod-start -e MODULE_VERSION=1.0.0 -e MODULE_URL=http://127.0.0.1:9 -e KC_URL=http://127.0.0.1:9
      -e AM_CLIENT_URL=http://127.0.0.1:9 -e TE_CLIENT_URL=http://127.0.0.1:9 -e TM_CLIENT_URL=http://127.0.0.1:9
      -e SIDECAR_URL=http://127.0.0.1:8082 -e SECRET_STORE_TYPE=EPHEMERAL -e SIDECAR_STARTUP_WAIT=0s)
    case $set in
      1) env+=(-e JAVA_AOT_OPTS=) ;;
      2) env+=(-e "JAVA_OPTS=$chart") ;;
      3) env+=(-e "JAVA_OPTS=$chart" -e JAVA_AOT_OPTS=) ;;
    esac
    "${PODMAN[@]}" run -d --name "$name" --network=none --read-only --cap-drop=ALL --security-opt=no-new-privileges \
      --memory=256m --ulimit nofile=20000:20000 --ulimit nproc=4096:4096 "${env[@]}" "$IMAGE" >/dev/null
    log="$here/start-logs/set-$set-run-$run.log"
    for _ in $(seq 180); do
      "${PODMAN[@]}" logs "$name" >"$log" 2>&1
      grep -q "started in" "$log" && break
      sleep 1
    done
    "${PODMAN[@]}" rm -f "$name" >/dev/null
    seconds=$(grep -o 'started in [0-9.]*s' "$log" | grep -o '[0-9.]*' || echo NaN)
    lines=$(sed '/started in/q' "$log" | grep -c -E '\[error\]|\[warning\]| WARN |VM warning' || true)
    echo "set $set run $run: started in $seconds s, $lines [error]/WARN lines, load $(cut -d' ' -f1 /proc/loadavg)"
  done
done
