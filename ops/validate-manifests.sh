#!/usr/bin/env bash
# Every object k8s/ renders, checked against its schema: `kubectl kustomize` (kubectl's built-in kustomize) renders
# the base, each overlay, each overlay with every opt-in component, and monitoring/; ops/k8s-schema/validate.mjs
# validates each object with kubernetes-models (the Kubernetes API's OpenAPI schemas) and, for the Prometheus
# Operator's PodMonitor, ServiceMonitor and PrometheusRule, @kubernetes-models/prometheus-operator (their CRDs'
# schemas). Installs the pinned npm packages (ops/k8s-schema/package-lock.json) when missing. Needs kubectl and node.
set -euo pipefail
cd "$(dirname "$0")/.."
SCHEMA=ops/k8s-schema
if [ ! -f "$SCHEMA/node_modules/.package-lock.json" ] \
  || ! cmp -s <(sed -n '/"packages"/,$p' "$SCHEMA/package-lock.json" | grep -v '"": {' ) \
    <(sed -n '/"packages"/,$p' "$SCHEMA/node_modules/.package-lock.json" | grep -v '"": {' ) 2>/dev/null; then
  echo "[manifests] installing the schema packages (npm ci)"
  (cd "$SCHEMA" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
echo "[manifests] $(kubectl version --client | tr '\n' ' ')"
status=0
render() {
  local label=$1 dir=$2
  kubectl kustomize "$dir" | node "$SCHEMA/validate.mjs" "$label" || status=1
}
render base k8s/base
render monitoring k8s/monitoring
combined=$(mktemp -d)
trap 'rm -rf "$combined"' EXIT
for overlay in k8s/overlays/*/; do
  name=$(basename "$overlay")
  render "overlays/$name" "$overlay"
  mkdir -p "$combined/$name"
  {
    # kustomize takes relative paths only
    echo "resources: [$(realpath --relative-to="$combined/$name" "$overlay")]"
    echo "components:"
    for component in k8s/components/*/; do echo "  - $(realpath --relative-to="$combined/$name" "$component")"; done
  } > "$combined/$name/kustomization.yaml"
  render "overlays/$name with every component" "$combined/$name"
done
# the validator itself: an object the schema refuses must fail
if printf 'apiVersion: v1\nkind: Service\nmetadata: {name: broken}\nspec: {ports: [{port: "http"}]}\n' \
  | node "$SCHEMA/validate.mjs" "a broken Service (must be refused)"; then
  echo "[manifests] the validator accepted a Service whose port is not a number"
  status=1
fi
echo "[manifests] exit $status"
exit $status
