#!/usr/bin/env bash
# folio-helm-v2 as shipped, only the sidecar's image swapped (run after image/build.sh): testkit ChartSmoke starts
# the chart's sidecar container (the chart's environment, k8s/folio-helm-v2-sidecar.env, its JAVA_OPTS; no ports,
# probes, security context or volumes) with what k8s/folio-helm-v2-values.yaml adds where the chart renders it (pod
# annotations, the module container's readinessProbe, the sidecar's 320Mi limit: ops/chart-render.sh) beside a
# module stand-in with `podman kube play`, against the demo's Keycloak, Kafka and manager stubs, and shows start to
# ready, the probe failing during a drain, 200/403, the module's egress through the pod's loopback, the start-up
# lines, RSS under load, and a real prometheus scraping it by the shipped scrape job with the alert
# rules evaluated and one alert firing. Needs root and podman; installs Debian's prometheus when missing.
#   IMAGE=<name:tag> ops/chart-smoke.sh     (default: the name image/build.sh tags)
set -euo pipefail
cd "$(dirname "$0")/.."
GIVEN_IMAGE=${IMAGE:-}
. image/name.sh
IMAGE=${GIVEN_IMAGE:-$IMAGE}
. image/storage.sh ops/chart-smoke.sh "$@"
ensure_image "$IMAGE"
if ! command -v prometheus >/dev/null; then
  echo "[chart] installing prometheus"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq prometheus >/dev/null
fi
export CONTAINERS_CONF=$PWD/ops/pod/containers.conf
ops/pod/build-standin.sh
echo "[chart] sidecar image $IMAGE"
# its own bound; on SIGTERM ChartSmoke's shutdown hooks remove the pod and stop prometheus
status=0
timeout 900 scripts/run-main.sh testkit org.folio.sidecar.testkit.ChartSmoke "$IMAGE" "$STANDIN_IMAGE" || status=$?
echo "[chart] exit $status after $SECONDS s (the whole script)"
exit $status
