#!/usr/bin/env bash
# Moves every link to the project's home (build-config/project.env's PROJECT_URL) to a new URL: the alerts'
# runbook_urls, their unit tests, the PrometheusRule, the docs and the changelog.
#   ops/set-project-url.sh https://github.com/<org>/<repo>
set -euo pipefail
cd "$(dirname "$0")/.."
new=${1:?usage: ops/set-project-url.sh <URL>}
new=${new%/}
. build-config/project.env
old=$PROJECT_URL
[ "$old" = "$new" ] && { echo "[project-url] already $new"; exit 0; }
files=$(grep -rlF "$old" build-config ops k8s docs README.md CHANGELOG.md 2>/dev/null || true)
for f in $files; do
  sed -i "s|$old|$new|g" "$f"
done
echo "[project-url] $old -> $new in $(wc -w <<<"$files") files"
