#!/usr/bin/env bash
# The sidecar's CPU per 1000 proxied requests with tracing off and on, interleaved (off, on, off, on by default):
# one packaged sidecar at a time (the image's JAVA_OPTS) in front of an nginx stub module, wrk's closed loop on a
# public endpoint (no Keycloak: routing, the request id, the access line, the forward), every request carrying a
# caller's sampled traceparent. With tracing on, spans go by OTLP/HTTP to the same nginx, which answers 200.
# CPU is the sidecar process's utime + stime from /proc over the measured window, divided by wrk's request count.
# Loopback only, bounded: ROUNDS x (start + WARM_S + MEASURE_S). Writes load/results/<timestamp>-tracing/.
#
#   load/tracing-cpu.sh [ROUNDS] [MEASURE_S]     (defaults 2 and 15; needs ./mvnw -pl sidecar -am package first)
#
# BASELINE_JAR=/path/to/quarkus-run.jar adds a run of that build (another commit's package) to every round, first:
# what the tracing-off path costs against a build without tracing.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-2}
MEASURE_S=${2:-15}
WARM_S=10
CONNECTIONS=16
JAR=sidecar/target/quarkus-app/quarkus-run.jar
[ -f "$JAR" ] || { echo "no $JAR: run ./mvnw -B -q -pl sidecar -am package -DskipTests first" >&2; exit 1; }
command -v wrk >/dev/null && command -v nginx >/dev/null || { echo "needs wrk and nginx (apt-get install wrk nginx)" >&2; exit 1; }
JAVA_OPTS_IMAGE=$(sed -n 's/^ENV JAVA_OPTS="\(.*\)"$/\1/p' image/Containerfile | head -1)
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
[ -n "${JAVA_HOME:-}" ] || JAVA=$(scripts/find-jdk)/bin/java

out=load/results/$(date -u +%Y%m%d-%H%M)-tracing
mkdir -p "$out"
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
module_port=$(free_port)
mkdir -p "$work/nginx/logs"
cat > "$work/nginx/nginx.conf" <<EOF
worker_processes 1;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $work/nginx;
  server { listen 127.0.0.1:$module_port; location / { default_type application/json; return 200 '{}'; } }
}
EOF
nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" &
pids+=($!)
cat > "$work/descriptor.json" <<'EOF'
{"id":"mod-items-1.0.0","name":"mod-items","provides":[{"id":"items","version":"1.0","handlers":[
 {"methods":["GET"],"pathPattern":"/public/info","permissionsRequired":[]}]}]}
EOF

ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
traceparent="00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

run() { # $1: base|off|on  $2: round
  local mode=$1 port pid log tracing=() jar=$JAR
  [ "$mode" = base ] && jar=$BASELINE_JAR
  port=$(free_port)
  log="$work/sidecar-$2-$mode.log"
  [ "$mode" = on ] && tracing=(OTEL_SDK_DISABLED=false OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf
    "OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:$module_port")
  # shellcheck disable=SC2086
  env -i PATH="$PATH" HOME="${HOME:-/tmp}" QUARKUS_HTTP_PORT="$port" QUARKUS_MANAGEMENT_PORT="$(free_port)" \
    MODULE_NAME=mod-items MODULE_VERSION=1.0.0 MODULE_URL="http://127.0.0.1:$module_port" \
    SIDECAR_URL="http://127.0.0.1:$port" KC_URL=http://127.0.0.1:9 MODULE_DESCRIPTOR_PATH="$work/descriptor.json" \
    SIDECAR_TENANT_ENTITLEMENT_CHECK=false SECRET_STORE_TYPE=EPHEMERAL "${tracing[@]}" \
    "$JAVA" $JAVA_OPTS_IMAGE -jar "$jar" > "$log" 2>&1 &
  pid=$!
  pids+=("$pid")
  for _ in $(seq 1 240); do
    curl -fs "http://127.0.0.1:$port/admin/health/live" >/dev/null 2>&1 && break
    sleep 0.5
  done
  local url="http://127.0.0.1:$port/public/info"
  wrk -t1 -c$CONNECTIONS -d${WARM_S}s -H "x-okapi-tenant: diku" -H "traceparent: $traceparent" "$url" >/dev/null
  local before after requests load
  load=$(cut -d' ' -f1 /proc/loadavg)
  before=$(ticks "$pid")
  requests=$(wrk -t1 -c$CONNECTIONS -d${MEASURE_S}s -H "x-okapi-tenant: diku" -H "traceparent: $traceparent" "$url" \
    | tee "$out/wrk-$2-$mode.txt" | awk '/requests in/ {print $1}')
  after=$(ticks "$pid")
  kill "$pid"; wait "$pid" 2>/dev/null || true
  # the sidecar's own lines, without its tens of thousands of access lines
  grep -v '"GET /public/info HTTP/1.1"' "$log" > "$out/sidecar-$2-$mode.log" || true
  awk -v m="$mode" -v r="$2" -v t=$((after - before)) -v n="$requests" -v hz="$hz" -v s="$MEASURE_S" -v l="$load" \
    'BEGIN { printf "| %s | %s | %d | %.0f | %.2f | %.3f | %s |\n", r, m, n, n / s, t / hz, t / hz / n * 1000, l }' \
    | tee -a "$out/rows.md"
}

{
  echo "# Tracing off and on: the sidecar's CPU per 1000 proxied requests"
  echo
  echo "\`load/tracing-cpu.sh $ROUNDS $MEASURE_S\` at $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores shared with other builds;"
  echo "JAVA_OPTS \`$JAVA_OPTS_IMAGE\`; wrk -t1 -c$CONNECTIONS, ${WARM_S} s warm-up then ${MEASURE_S} s measured per run;"
  echo "GET /public/info (no Keycloak) through the sidecar to nginx, with a sampled caller traceparent."
  [ -n "${BASELINE_JAR:-}" ] && echo "base: \`$BASELINE_JAR\` (tracing off: it has none)."
  echo
  echo "| round | tracing | requests | requests/s | sidecar CPU s | CPU s per 1000 requests | load average (1 min) at start |"
  echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
} > "$out/report.md"
: > "$out/rows.md"
for round in $(seq 1 "$ROUNDS"); do
  [ -n "${BASELINE_JAR:-}" ] && run base "$round"
  run off "$round"
  run on "$round"
done
cat "$out/rows.md" >> "$out/report.md"
rm "$out/rows.md"
echo "$out/report.md"
