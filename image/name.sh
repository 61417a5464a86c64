# The image's name, in this project's own namespace, defined here only: image/*.sh source this file, and
# ManifestsTest checks that k8s/ deploys this name. No registry publishes the image: image/build.sh builds it on
# the machine, and docs/operations.md says how to push it to one's own registry.
IMAGE_REPOSITORY=ghcr.io/folio-caching-sidecar/folio-caching-sidecar
VERSION=$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' pom.xml | head -n 1 | sed 's/-SNAPSHOT//')
IMAGE=$IMAGE_REPOSITORY:$VERSION
