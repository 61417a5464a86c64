#!/usr/bin/env bash
# Makes sure this run's container storage holds $BASE_IMAGE (image/name.sh): a root file system with only glibc and
# dash (the shell that expands operators' $JAVA_OPTS), taken from Debian bookworm's packages by mmdebstrap. The
# sidecar's image (image/build.sh) and the module stand-in (ops/pod/build-standin.sh) start from it. The packages
# are fetched once into target/image/packages.tar, whose .deb files image/build.sh's SBOM describes; a storage
# that lacks the image gets it imported again from them. Needs root (apt-get when a tool is missing).
set -euo pipefail
cd "$(dirname "$0")/.."
. image/name.sh
. image/storage.sh image/base.sh "$@"
WORK=target/image
PODMAN=(podman --runtime runc --cgroup-manager=cgroupfs)
need=()
for tool in podman mmdebstrap runc; do
  command -v "$tool" >/dev/null || need+=("$tool")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "[base] installing ${need[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
mkdir -p "$WORK"
if [ ! -f "$WORK/packages.tar" ]; then
  echo "[base] fetching glibc and dash from Debian bookworm"
  # extract: unpacked, never installed, so no maintainer scripts and none of dpkg's own files are needed; the
  # .deb files are kept for the SBOM
  mmdebstrap --quiet --variant=extract --include=libc6,dash --skip=cleanup/apt/cache bookworm "$WORK/packages.part.tar"
  mv "$WORK/packages.part.tar" "$WORK/packages.tar"
fi
# the root file system, also read by image/build.sh's SBOM
rm -rf "$WORK/base" && mkdir -p "$WORK/base/etc" "$WORK/base/tmp"
tar -xf "$WORK/packages.tar" -C "$WORK/base" ./lib/x86_64-linux-gnu ./lib64 ./bin/dash ./bin/sh
chmod 1777 "$WORK/base/tmp"
# the image's user has a name and a home, as the JVM asks for them (user.name, user.home)
printf 'root:x:0:0:root:/root:/bin/sh\nsidecar:x:185:0:sidecar:/deployments:/bin/sh\n' >"$WORK/base/etc/passwd"
printf 'root:x:0:\n' >"$WORK/base/etc/group"
"${PODMAN[@]}" image exists "$BASE_IMAGE" && exit 0
tar -C "$WORK/base" --owner=0 --group=0 -c . | "${PODMAN[@]}" import --quiet - "$BASE_IMAGE" >/dev/null
echo "[base] $BASE_IMAGE imported"
