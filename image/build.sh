#!/usr/bin/env bash
# Builds the sidecar's container image here, with no registry: ./image/build.sh
#   1. a root file system with only what the JVM and the ENTRYPOINT need: glibc and dash (the shell that expands
#      operators' $JAVA_OPTS), taken from Debian bookworm's packages by mmdebstrap, imported as
#      $BASE_IMAGE by image/base.sh (the packages cached in target/image/packages.tar); Java brings its own CA
#      certificates, time zones and zlib;
#   2. a jlink runtime from the build's JDK with the modules in image/jlink-modules.txt (what jdeps reports
#      for the packaged app, plus TLS/DNS providers);
#   3. the SBOMs (CycloneDX): the Maven build's (sidecar/target/bom.json) and the base's Debian packages and Java
#      runtime (image/os-sbom.py), in the image at /usr/share/doc/sbom and beside it in target/image/sbom, with
#      the vulnerability report image/scan.sh makes of them (target/image/sbom/vulnerability-report.md);
#   4. image/Containerfile on top, with image/entrypoint.sh; one run of it per collector family on the demo's
#      traffic (testkit StartTimes, image/aot-train-run.sh: Keycloak, tenants, stub module) trains the JDK's AOT
#      caches, which image/Containerfile.aot adds as the last layer;
#   5. tagged $IMAGE of image/name.sh (the name k8s/ deploys), saved as the OCI archive $IMAGE_ARCHIVE for
#      `skopeo copy` to any registry; its size written to image/size.txt, the one place the docs take it from.
#      The build runs in a container storage of its own (image/storage.sh), removed at the end unless .ci/run
#      shares its own: the archive is what outlives it.
# Needs root (apt-get for podman, umoci, mmdebstrap, runc, skopeo when missing) and Debian's package mirror.
set -euo pipefail
cd "$(dirname "$0")/.."
JAVA_HOME=$(scripts/find-jdk)
export JAVA_HOME
. image/name.sh
. image/storage.sh image/build.sh "$@"
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

if [ ! -d sidecar/target/quarkus-app ] || [ ! -f sidecar/target/bom.json ]; then
  ./mvnw -q -B package -pl sidecar -am -Dmaven.test.skip=true
fi
mkdir -p "$WORK"
image/base.sh

echo "[image] jlink runtime"
rm -rf "$WORK/context" && mkdir -p "$WORK/context"
"$JAVA_HOME/bin/jlink" --add-modules "$(tr -d '[:space:]' < image/jlink-modules.txt)" --strip-debug --no-man-pages \
  --no-header-files --compress=zip-6 --output "$WORK/context/jre"
cp -r sidecar/target/quarkus-app "$WORK/context/quarkus-app"
cp image/entrypoint.sh "$WORK/context/entrypoint.sh"

echo "[image] SBOMs and vulnerability report"
rm -rf "$WORK/debs" "$WORK/sbom" && mkdir -p "$WORK/debs" "$WORK/sbom"
tar -xf "$WORK/packages.tar" -C "$WORK/debs" --wildcards './var/cache/apt/archives/*.deb'
image/os-sbom.py "$WORK/base" "$JAVA_HOME" "$WORK/context/jre" "$WORK"/debs/var/cache/apt/archives/*.deb \
  >"$WORK/sbom/image-os.cdx.json"
cp sidecar/target/bom.json "$WORK/sbom/sidecar-maven.cdx.json"
cp -r "$WORK/sbom" "$WORK/context/sbom"
image/scan.sh "$WORK/sbom/image-os.cdx.json" "$WORK/sbom/sidecar-maven.cdx.json" \
  "$WORK/sbom/vulnerability-report.md"

TRAINED=$IMAGE_REPOSITORY-untrained:$VERSION
echo "[image] building $TRAINED"
"${PODMAN[@]}" build --quiet -f image/Containerfile --build-arg BASE="$BASE_IMAGE" -t "$TRAINED" "$WORK/context" >/dev/null

# The AOT caches, one per collector family (a cache trained with compressed oops is refused under ZGC, and the
# reverse): one run of the untrained image per family on the demo's traffic (allowed, denied, bad token, egress),
# with the image's own options (Serial) and with folio-helm-v2's JAVA_OPTS (ZGC), the image's floor added by the
# entrypoint as at run time (image/aot-train-run.sh); the JVM writes the cache when it ends. The entrypoint picks
# one by the collector.
echo "[image] training the AOT caches (serial, zgc) on the demo's traffic"
rm -rf "$WORK/aot" && mkdir -p "$WORK/aot" && chmod 777 "$WORK/aot"
AOT_DIR=$PWD/$WORK/aot AOT_NAME=sidecar-aot-training-$$ AOT_IMAGE=$TRAINED DEMO_SIDECAR_COMMAND=image/aot-train-run.sh \
  timeout 1200 scripts/run-main.sh testkit org.folio.sidecar.testkit.StartTimes --runs 2 --traffic 200 \
  --logs "$WORK/aot-training"
for family in serial zgc; do
  # podman's client is left to its container when the demo ends: wait for the cache to be written (bounded)
  for _ in $(seq 300); do
    "${PODMAN[@]}" container exists "sidecar-aot-training-$$-$family" || break
    sleep 1
  done
  if [ ! -s "$WORK/aot/app-$family.aot" ]; then
    echo "[image] no AOT cache written for $family; see $WORK/aot-training/run-*.log" >&2
    exit 1
  fi
done
rm -f "$WORK/aot/runs"
echo "[image] building $IMAGE with the AOT caches (serial $(stat -c %s "$WORK/aot/app-serial.aot")," \
  "zgc $(stat -c %s "$WORK/aot/app-zgc.aot") bytes)"
"${PODMAN[@]}" build --quiet -f image/Containerfile.aot --build-arg TRAINED="$TRAINED" -t "$IMAGE" "$WORK/aot" \
  >/dev/null
# the previous build of the tag is left untagged; repeated builds on one machine would pile them up
"${PODMAN[@]}" image prune -f >/dev/null
rm -f "$IMAGE_ARCHIVE"
"${PODMAN[@]}" save --quiet --format oci-archive -o "$IMAGE_ARCHIVE" "$IMAGE"
image_bytes=$("${PODMAN[@]}" image inspect --format '{{.Size}}' "$IMAGE")
archive_bytes=$(stat -c %s "$IMAGE_ARCHIVE")
echo "[image] $IMAGE: $image_bytes bytes; archive $IMAGE_ARCHIVE $archive_bytes bytes"
# the one place the docs take the image's size from (README, docs/operations.md): rewritten by every build
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }
printf '%s
' "# Written by image/build.sh; the docs point here instead of repeating the figures." \
  "image: $IMAGE" "built: $(date -u +%Y-%m-%d) at commit $(git rev-parse --short HEAD)" \
  "size: $(mb "$image_bytes") ($image_bytes bytes)" "oci-archive: $(mb "$archive_bytes") ($archive_bytes bytes)" \
  "aot-caches: serial $(mb "$(stat -c %s "$WORK/aot/app-serial.aot")"), zgc $(mb "$(stat -c %s "$WORK/aot/app-zgc.aot")")" \
  >image/size.txt
