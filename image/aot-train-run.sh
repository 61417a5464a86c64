#!/usr/bin/env bash
# DEMO_SIDECAR_COMMAND of image/build.sh's AOT training: testkit StartTimes starts one sidecar per run, and the n-th
# start trains the n-th collector family's cache into AOT_DIR: 1 the image's own options (Serial, app-serial.aot),
# 2 folio-helm-v2's JAVA_OPTS (ZGC, app-zgc.aot). Both in one StartTimes run: one Keycloak start for both.
# The container is named AOT_NAME-<family> so that build.sh can wait for the JVM to write its cache at exit.
set -euo pipefail
n=$(( $(cat "$AOT_DIR/runs" 2>/dev/null || echo 0) + 1 ))
echo "$n" >"$AOT_DIR/runs"
if [ "$n" = 1 ]; then
  family=serial
  export JAVA_OPTS=""
else
  family=zgc
  JAVA_OPTS=$(sed -n 's/^JAVA_OPTS=//p' k8s/folio-helm-v2-sidecar.env)
  export JAVA_OPTS
fi
# podman --env-host hands JAVA_OPTS (with its spaces) and JAVA_AOT_OPTS to the container
export JAVA_AOT_OPTS=-XX:AOTCacheOutput=/aot/app-$family.aot
exec podman --runtime runc --cgroup-manager=cgroupfs run --rm --name "$AOT_NAME-$family" --network=host --env-host \
  --read-only -v /tmp:/tmp -v "$AOT_DIR:/aot" --cap-drop=ALL --security-opt=no-new-privileges \
  --ulimit nofile=20000:20000 --ulimit nproc=4096:4096 "$AOT_IMAGE"
