#!/usr/bin/env bash
# Checks the alert rules with Prometheus' own tool: syntax (promtool check rules) and behaviour, one unit-test
# file per alert (promtool test rules: series in, alert out). Installs Debian's prometheus package (2.42, which
# brings promtool) when promtool is missing; needs root for that.
set -euo pipefail
cd "$(dirname "$0")/prometheus"
if ! command -v promtool >/dev/null; then
  echo "[rules] installing prometheus (promtool)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq prometheus >/dev/null
fi
promtool check rules sidecar-rules.yaml
alerts=$(grep -c '^ *- alert:' sidecar-rules.yaml)
tests=(tests/*.test.yaml)
# every alert has its own test file, and every test file names the alert it tests
for alert in $(sed -n 's/^ *- alert: *//p' sidecar-rules.yaml); do
  grep -l "alertname: $alert\$" "${tests[@]}" >/dev/null || { echo "[rules] no unit test for $alert"; exit 1; }
done
cd tests
out=$(promtool test rules ./*.test.yaml 2>&1) || { echo "$out"; exit 1; }
passed=$(grep -c '^  SUCCESS' <<<"$out")
echo "[rules] $alerts alerts, ${#tests[@]} unit-test files"
echo "promtool: $passed passed, $((${#tests[@]} - passed)) failed"
