# Every image name the project uses, defined here: the scripts that build or run an image source this file, and
# ManifestsTest checks that k8s/ deploys $IMAGE. The sidecar's repository is part of the project's home,
# build-config/project.env's IMAGE_REPOSITORY (ops/set-project-url.sh moves it with the links). No registry
# publishes the image: image/build.sh builds it on the machine, and docs/operations.md says how to push it to one's
# own registry.
. build-config/project.env
VERSION=$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' pom.xml | head -n 1 | sed 's/-SNAPSHOT//')
IMAGE=$IMAGE_REPOSITORY:$VERSION
# glibc and dash from Debian (image/base.sh): the sidecar's base, and the module stand-in's
BASE_IMAGE=localhost/folio-caching-sidecar-base:bookworm
# busybox httpd answering the demo module's paths, for the pod and chart smokes (ops/pod/build-standin.sh)
STANDIN_IMAGE=localhost/folio-module-standin:1
# image/build.sh's OCI archive of $IMAGE: a script whose container storage lacks the image loads it from here
IMAGE_ARCHIVE=target/image/folio-caching-sidecar.tar
