#!/usr/bin/env bash
# Moves the project's home (build-config/project.env) at once. Its PROJECT_URL: the alerts' runbook_urls, their
# unit tests, the PrometheusRule, the docs and the changelog. Its IMAGE_REPOSITORY: the image image/name.sh names,
# the one k8s/ deploys, the docs, image/size.txt.
#   ops/set-project-url.sh https://github.com/<org>/<repo> [<image repository>]
# Without an image repository, a github.com home takes GitHub's container registry of that repository,
# ghcr.io/<org>/<repo> in lower case (where a workflow of that repository publishes); another home must name one.
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: ops/set-project-url.sh <URL> [<image repository>]"
new=${1:?$usage}
new=${new%/}
. build-config/project.env
if [ $# -ge 2 ]; then
  new_image=$2
elif [[ $new =~ ^https://github\.com/([^/]+)/([^/]+)$ ]]; then
  new_image=ghcr.io/${BASH_REMATCH[1],,}/${BASH_REMATCH[2],,}
else
  echo "[project-url] $new is not a github.com repository: give its image repository too ($usage)" >&2
  exit 2
fi

# every file under $@ that holds $1 gets $2 instead; $1 taken literally, not as a pattern
move() {
  local from=$1 to=$2
  shift 2
  if [ "$from" = "$to" ]; then
    echo "[project-url] already $to"
    return
  fi
  local pattern files
  pattern=$(printf '%s' "$from" | sed 's/[].[*^$\\|]/\\&/g')
  files=$(grep -rlF "$from" "$@" 2>/dev/null || true)
  for f in $files; do
    sed -i "s|$pattern|$to|g" "$f"
  done
  echo "[project-url] $from -> $to in $(wc -w <<<"$files") files"
}

move "$PROJECT_URL" "$new" build-config ops k8s docs README.md CHANGELOG.md
move "$IMAGE_REPOSITORY" "$new_image" build-config k8s docs README.md image/size.txt
