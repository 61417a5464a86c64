#!/usr/bin/env bash
# The manifests as a pod (run after image/build.sh): renders k8s/overlays/mod-inventory with `kubectl kustomize`
# into target/k8s/mod-inventory.yaml, builds a tiny stand-in for the module image (ops/pod/build-standin.sh), and
# runs testkit PodSmoke: podman kube play against the demo's
# Keycloak, then the containers' security as the kernel sees it, probes, 200/403 through the sidecar's port,
# metrics, and a clean stop. Prints what podman does not run (Service, HPA, PDB). Needs root and podman.
set -euo pipefail
cd "$(dirname "$0")/.."
RENDERED=target/k8s/mod-inventory.yaml
. image/name.sh
. image/storage.sh ops/pod-smoke.sh "$@"
ensure_image "$IMAGE"
mkdir -p "$(dirname "$RENDERED")"
kubectl kustomize k8s/overlays/mod-inventory > "$RENDERED"

export CONTAINERS_CONF=$PWD/ops/pod/containers.conf
ops/pod/build-standin.sh
# its own bound; on SIGTERM PodSmoke's shutdown hook removes the pod (conmon is not its child)
status=0
timeout 900 scripts/run-main.sh testkit org.folio.sidecar.testkit.PodSmoke "$RENDERED" "$STANDIN_IMAGE" || status=$?
echo "[pod] exit $status after $SECONDS s (the whole script)"
exit $status
