#!/usr/bin/env bash
# Builds the sidecar's container image here, with no registry: ./image/build.sh
#   1. a Debian bookworm minbase root file system (ca-certificates, tzdata) made by mmdebstrap, imported as
#      localhost/deb-base:bookworm (cached under target/image/);
#   2. a jlink runtime from the build's JDK with the modules in image/jlink-modules.txt (what jdeps reports
#      for the packaged app, plus TLS/DNS providers);
#   3. image/Containerfile on top, tagged folioorg/folio-caching-sidecar:<version> (the name k8s/ deploys),
#      saved as an OCI archive target/image/folio-caching-sidecar.tar for `skopeo copy` to any registry.
# Needs root (apt-get for podman, umoci, mmdebstrap, runc, skopeo when missing) and Debian's package mirror.
set -euo pipefail
cd "$(dirname "$0")/.."
JAVA_HOME=$(scripts/find-jdk)
export JAVA_HOME
VERSION=$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' pom.xml | head -n 1 | sed 's/-SNAPSHOT//')
IMAGE=folioorg/folio-caching-sidecar:$VERSION
WORK=target/image
PODMAN=(podman --runtime runc --cgroup-manager=cgroupfs)

need=()
for tool in podman umoci mmdebstrap runc skopeo; do
  command -v "$tool" >/dev/null || need+=("$tool")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "[image] installing ${need[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

if [ ! -d sidecar/target/quarkus-app ]; then
  ./mvnw -q -B package -pl sidecar -am -Dmaven.test.skip=true
fi
mkdir -p "$WORK"
if ! "${PODMAN[@]}" image exists localhost/deb-base:bookworm; then
  if [ ! -f "$WORK/rootfs.tar" ]; then
    echo "[image] making the Debian minbase root file system"
    mmdebstrap --quiet --variant=minbase --include=ca-certificates,tzdata bookworm "$WORK/rootfs.tar"
  fi
  "${PODMAN[@]}" import "$WORK/rootfs.tar" localhost/deb-base:bookworm >/dev/null
fi

echo "[image] jlink runtime"
rm -rf "$WORK/context" && mkdir -p "$WORK/context"
"$JAVA_HOME/bin/jlink" --add-modules "$(tr -d '[:space:]' < image/jlink-modules.txt)" --strip-debug --no-man-pages \
  --no-header-files --compress=zip-6 --output "$WORK/context/jre"
cp -r sidecar/target/quarkus-app "$WORK/context/quarkus-app"

echo "[image] building $IMAGE"
"${PODMAN[@]}" build --quiet -f image/Containerfile -t "$IMAGE" "$WORK/context" >/dev/null
# the previous build of the tag is left untagged; repeated builds on one machine would pile them up
"${PODMAN[@]}" image prune -f >/dev/null
rm -f "$WORK/folio-caching-sidecar.tar"
"${PODMAN[@]}" save --quiet --format oci-archive -o "$WORK/folio-caching-sidecar.tar" "$IMAGE"
echo "[image] $IMAGE: $("${PODMAN[@]}" image inspect --format '{{.Size}}' "$IMAGE") bytes;" \
  "archive $WORK/folio-caching-sidecar.tar $(stat -c %s "$WORK/folio-caching-sidecar.tar") bytes"
