#!/usr/bin/env bash
# The image's profiling tools work in its container as an operator would use them (docs/operations.md):
# JAVA_OPTS_APPEND=-XX:StartFlightRecording starts a recording at start, and `jcmd 1` (the JVM is process 1: the
# entrypoint execs it) answers VM.native_memory (with JAVA_DIAGNOSTICS=true) and JFR.dump, whose file `jfr`
# reads. The container has no network (nothing to reach: the sidecar retries its bootstrap meanwhile), is read-only
# but for /tmp, non-root, with all capabilities dropped; bounded by its own waits.
#   image/profiling-check.sh [IMAGE]
set -euo pipefail
cd "$(dirname "$0")/.."
. image/name.sh
. image/storage.sh image/profiling-check.sh "$@"
image=${1:-$IMAGE}
ensure_image "$image"
PODMAN=(podman --runtime runc --cgroup-manager=cgroupfs)
name=sidecar-profiling-$$
trap '"${PODMAN[@]}" rm -f "$name" >/dev/null 2>&1 || true' EXIT
started=$(date +%s)
"${PODMAN[@]}" run -d --name "$name" --network=none --read-only --cap-drop=ALL --security-opt=no-new-privileges \
  --ulimit nofile=20000:20000 --ulimit nproc=4096:4096 -e JAVA_DIAGNOSTICS=true \
  -e JAVA_OPTS_APPEND=-XX:StartFlightRecording=name=startup,settings=default \
  -e MODULE_NAME=mod-profiling -e MODULE_VERSION=1.0.0 -e MODULE_URL=http://127.0.0.1:9 \
  -e KC_URL=http://127.0.0.1:9 -e AM_CLIENT_URL=http://127.0.0.1:9 -e TE_CLIENT_URL=http://127.0.0.1:9 \
  -e TM_CLIENT_URL=http://127.0.0.1:9 -e SIDECAR_URL=http://127.0.0.1:8082 -e SECRET_STORE_TYPE=EPHEMERAL "$image" \
  >/dev/null

fail() {
  echo "[profiling] FAILED: $1" >&2
  "${PODMAN[@]}" logs "$name" 2>&1 | tail -n 30 >&2
  exit 1
}
# The logs are read whole before grep looks: with pipefail, `podman logs | grep -q` fails whenever grep stops reading
# at the match before podman has written the rest (SIGPIPE), which a container still logging makes likely.
recording_started() {
  local logs
  logs=$("${PODMAN[@]}" logs "$name" 2>&1)
  grep -q "Started recording" <<<"$logs"
}
# the recording is started before the application's main runs; jcmd needs the JVM's attach listener up
for _ in $(seq 120); do
  recording_started && break
  [ "$("${PODMAN[@]}" inspect --format '{{.State.Running}}' "$name")" = true ] || fail "the container ended"
  sleep 1
done
recording_started || fail "no 'Started recording' within 120 s"
jcmd() {
  local out
  for _ in $(seq 30); do
    if out=$("${PODMAN[@]}" exec "$name" /opt/java/bin/jcmd 1 "$@" 2>&1); then
      echo "$out"
      return 0
    fi
    sleep 1
  done
  fail "jcmd 1 $*: $out"
}
nmt=$(jcmd VM.native_memory summary)
grep -q "Total: reserved=" <<<"$nmt" || fail "VM.native_memory: $nmt"
dump=$(jcmd JFR.dump name=startup filename=/tmp/startup.jfr)
grep -q "Dumped recording" <<<"$dump" || fail "JFR.dump: $dump"
summary=$("${PODMAN[@]}" exec "$name" /opt/java/bin/jfr summary /tmp/startup.jfr)
events=$(awk '$1 ~ /^jdk\./ {n += $2} END {print n + 0}' <<<"$summary")
[ "$events" -gt 0 ] || fail "jfr summary: no events"
echo "[profiling] $image: a recording from the start; jcmd 1 VM.native_memory: $(grep 'Total: reserved=' <<<"$nmt" |
  sed 's/^ *//'); jcmd 1 JFR.dump: $events events read back by jfr ($(( $(date +%s) - started )) s)"
