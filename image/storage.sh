# Sourced first by every script that builds or runs an image, from the project's folder, after image/name.sh, with
# the script's path from that folder and its own arguments:
#   cd "$(dirname "$0")/.."; . image/name.sh; . image/storage.sh image/build.sh "$@"
# Started on its own, the script runs again inside image/with-storage.sh (a container storage of its own, empty,
# removed at the end); started by .ci/run or another such script, it shares its caller's storage.
if [ -z "${SIDECAR_RUN_STORAGE:-}" ]; then
  exec image/with-storage.sh "$@"
fi

# The storage holds $1 or gets it from image/build.sh's archive, the only place an image outlives its run.
ensure_image() {
  local p=(podman --runtime runc --cgroup-manager=cgroupfs)
  "${p[@]}" image exists "$1" && return 0
  if [ "$1" != "$IMAGE" ] || [ ! -f "$IMAGE_ARCHIVE" ]; then
    echo "no image $1 in this run's container storage, and no $IMAGE_ARCHIVE: run image/build.sh first" >&2
    return 1
  fi
  "${p[@]}" load --quiet -i "$IMAGE_ARCHIVE" >/dev/null
}
