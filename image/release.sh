#!/usr/bin/env bash
# Turns the current commit into release <version>, locally; pushes nothing (docs/release.md):
#   image/release.sh <version> [--no-image]
#   1. checks: a clean work tree, no tag v<version> yet, a "## [<version>]" section in CHANGELOG.md;
#   2. sets the Maven version of every module to <version> (versions:set) and k8s/base's image tag to it;
#   3. builds and packages the sidecar (tests are CI's: a release is cut from a commit CI passed), which also
#      writes the Maven SBOM (sidecar/target/bom.json);
#   4. commits "Release <version>" and tags it v<version> (annotated);
#   5. builds the versioned image and its SBOMs with image/build.sh (root, podman; Debian's mirror), unless
#      --no-image: then `git checkout v<version> && image/build.sh` does it later, on any machine;
#   6. sets the next development version, <major>.<minor>.<patch+1>-SNAPSHOT (its image tag without -SNAPSHOT, as
#      image/name.sh names it), and commits it.
# Publishing (git push --follow-tags, skopeo copy of target/image/folio-caching-sidecar.tar) is the operator's
# step, where a registry is reachable.
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:?usage: image/release.sh <version> [--no-image]}
image=true
[ "${2:-}" = "--no-image" ] && image=false
say() { echo "[release] $*"; }
fail() { echo "[release] $*" >&2; exit 1; }

[[ $version =~ ^([0-9]+)\.([0-9]+)\.([0-9]+)$ ]] || fail "version must be MAJOR.MINOR.PATCH, got '$version'"
next="${BASH_REMATCH[1]}.${BASH_REMATCH[2]}.$((BASH_REMATCH[3] + 1))-SNAPSHOT"
git diff --quiet && git diff --cached --quiet || fail "the work tree has uncommitted changes"
! git rev-parse -q --verify "refs/tags/v$version" >/dev/null || fail "tag v$version exists"
grep -q "^## \[$version\]" CHANGELOG.md || fail "CHANGELOG.md has no section '## [$version]'"

set_version() {
  ./mvnw -B -q versions:set -DnewVersion="$1" -DgenerateBackupPoms=false -DprocessAllModules=true
}
say "version $version (next $next)"
set_version "$version"
# the image k8s/ deploys is the one the build makes (ManifestsTest)
deploy_image() {
  . image/name.sh
  [ "$VERSION" = "${1%-SNAPSHOT}" ] || fail "image/name.sh reads version '$VERSION' from pom.xml, not $1"
  sed -i "s|image: $IMAGE_REPOSITORY:.*|image: $IMAGE|" k8s/base/deployment.yaml
}
deploy_image "$version"
say "building $version"
./mvnw -B -q package -pl sidecar -am -Dmaven.test.skip=true
[ -f sidecar/target/bom.json ] || fail "no Maven SBOM at sidecar/target/bom.json"
git commit -q -am "Release $version"
git tag -a "v$version" -m "Release $version"
say "tagged v$version at $(git rev-parse --short HEAD)"
if $image; then
  image/build.sh
  say "image $IMAGE, SBOMs and report in target/image/sbom"
else
  say "image not built (--no-image): git checkout v$version && image/build.sh"
fi
set_version "$next"
deploy_image "$next"
git commit -q -am "Next development version $next"
say "done: v$version tagged, $next on $(git rev-parse --abbrev-ref HEAD); nothing pushed"
