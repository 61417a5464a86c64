#!/usr/bin/env bash
# The manifests as a pod (run after image/build.sh): renders k8s/overlays/mod-inventory with the project's own
# kustomize renderer (ManifestsTest writes sidecar/target/k8s/mod-inventory.yaml), builds a tiny stand-in for
# the module image (ops/pod/Containerfile), and runs testkit PodSmoke: podman kube play against the demo's
# Keycloak, then the containers' security as the kernel sees it, probes, 200/403 through the sidecar's port,
# metrics, and a clean stop. Prints what podman does not run (Service, HPA, PDB). Needs root and podman.
set -euo pipefail
cd "$(dirname "$0")/.."
PODMAN=(podman --runtime runc --cgroup-manager=cgroupfs)
RENDERED=sidecar/target/k8s/mod-inventory.yaml
STANDIN=localhost/folio-module-standin:1
if ! command -v busybox >/dev/null || ! busybox --list | grep -qx httpd; then
  echo "[pod] installing busybox-static"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq busybox-static >/dev/null
fi
if [ ! -f "$RENDERED" ]; then
  ./mvnw -q -B -pl sidecar -am test -Dtest=ManifestsTest -Dsurefire.failIfNoSpecifiedTests=false
fi

context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
# these machines refuse runc's default rlimits (as image/smoke.sh's --ulimit says); kube play has no flag for it
cat > "$context/containers.conf" <<'CONF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=4096:4096"]
CONF
export CONTAINERS_CONF="$context/containers.conf"
cp "$(command -v busybox)" "$context/busybox"
printf 'root:x:0:0:root:/root:/bin/sh\nfolio:x:1000:1000:folio:/www:/usr/sbin/nologin\n' > "$context/passwd"
printf 'root:x:0:\nfolio:x:1000:\n' > "$context/group"
mkdir -p "$context/www/items" "$context/www/admin"
echo '{"module":"mod-items"}' > "$context/www/items/1"
echo '{"status":"UP"}' > "$context/www/admin/health"
"${PODMAN[@]}" build --quiet -f ops/pod/Containerfile -t "$STANDIN" "$context" >/dev/null
echo "[pod] module stand-in $STANDIN built"
# its own bound; on SIGTERM PodSmoke's shutdown hook removes the pod (conmon is not its child)
status=0
timeout 900 scripts/run-main.sh testkit org.folio.sidecar.testkit.PodSmoke "$RENDERED" "$STANDIN" || status=$?
echo "[pod] exit $status after $SECONDS s (the whole script)"
exit $status
