#!/usr/bin/env bash
# Flushes cached authorization decisions on every sidecar of a namespace (or of one module), through each sidecar's
# admin API on its management port (docs/admin-api.md, docs/runbooks.md "Revoke a permission now").
#
#   ops/fleet-flush.sh -n NAMESPACE [-l SELECTOR] [-c CONTAINER] SCOPE     every pod with a sidecar container,
#                                                                          one kubectl port-forward each
#   ops/fleet-flush.sh --addresses HOST:PORT[,HOST:PORT...] SCOPE          sidecars reachable directly
#   SCOPE: --tenant T [--user ID | --session SID]  |  --all
#
# The credential is read from the environment, SIDECAR_ADMIN_TOKEN (the secret <env>_sidecar_admin of the secret
# store), never from the command line, and reaches curl on its standard input, so it shows in no process list.
# One line per sidecar, then a total; the exit status is 1 if any sidecar did not confirm the flush.
set -euo pipefail

namespace="" selector="" container="sidecar" addresses="" port=9000
query=()
usage() { sed -n '2,12p' "$0" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    -n|--namespace) namespace="$2"; shift 2 ;;
    -l|--selector) selector="$2"; shift 2 ;;
    -c|--container) container="$2"; shift 2 ;;
    --port) port="$2"; shift 2 ;;
    --addresses) addresses="$2"; shift 2 ;;
    --tenant|--user|--session) query+=(--data-urlencode "${1#--}=$2"); shift 2 ;;
    --all) query+=(--data-urlencode "all=true"); shift ;;
    *) usage ;;
  esac
done
[ ${#query[@]} -gt 0 ] || usage
[ -n "$namespace" ] || [ -n "$addresses" ] || usage
: "${SIDECAR_ADMIN_TOKEN:?set SIDECAR_ADMIN_TOKEN to the admin credential}"

total=0 ok=0 failed=0
# POSTs the flush to one management address; prints "<name>: <status> invalidated=<n>"
flush() {
  local name="$1" address="$2" body status
  body=$(printf 'Authorization: Bearer %s' "$SIDECAR_ADMIN_TOKEN" \
    | curl -sS -m 10 -G -X POST -H @- "${query[@]}" -w '\n%{http_code}' "http://$address/admin/cache/flush" 2>&1) \
    || true
  status=${body##*$'\n'}
  body=${body%$'\n'*}
  if [ "$status" = "200" ]; then
    local n
    n=$(sed -n 's/.*"invalidated" *: *\([0-9]*\).*/\1/p' <<<"$body")
    echo "$name: 200 invalidated=${n:-?}"
    total=$((total + ${n:-0})) ok=$((ok + 1))
  else
    echo "$name: FAILED status=${status:-none} $(tr -d '\n' <<<"$body" | cut -c1-200)"
    failed=$((failed + 1))
  fi
}

if [ -n "$addresses" ]; then
  IFS=',' read -r -a targets <<<"$addresses"
  for address in "${targets[@]}"; do
    flush "$address" "$address"
  done
else
  args=(-n "$namespace")
  [ -n "$selector" ] && args+=(-l "$selector")
  # pods that run a container named like the sidecar's
  mapfile -t pods < <(kubectl get pods "${args[@]}" --field-selector=status.phase=Running \
    -o jsonpath='{range .items[*]}{.metadata.name}{" "}{.spec.containers[*].name}{"\n"}{end}' \
    | awk -v c="$container" '{for (i = 2; i <= NF; i++) if ($i == c) {print $1; break}}')
  [ ${#pods[@]} -gt 0 ] || { echo "no running pod with a '$container' container in $namespace ${selector:+($selector)}" >&2; exit 1; }
  for pod in "${pods[@]}"; do
    log=$(mktemp)
    # ":PORT" lets kubectl choose a free local port, which it prints
    kubectl port-forward -n "$namespace" "pod/$pod" ":$port" >"$log" 2>&1 &
    forward=$!
    local_port=""
    for _ in $(seq 1 50); do
      local_port=$(sed -n 's/^Forwarding from 127.0.0.1:\([0-9]*\) .*/\1/p' "$log" | head -1)
      [ -n "$local_port" ] && break
      kill -0 "$forward" 2>/dev/null || break
      sleep 0.2
    done
    if [ -n "$local_port" ]; then
      flush "pod/$pod" "127.0.0.1:$local_port"
    else
      echo "pod/$pod: FAILED port-forward: $(tr -d '\n' <"$log" | cut -c1-200)"
      failed=$((failed + 1))
    fi
    kill "$forward" 2>/dev/null || true
    wait "$forward" 2>/dev/null || true
    rm -f "$log"
  done
fi
echo "flushed on $ok of $((ok + failed)) sidecars: invalidated=$total failed=$failed"
[ "$failed" -eq 0 ]
