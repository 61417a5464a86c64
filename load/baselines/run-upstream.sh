#!/usr/bin/env bash
# Runs upstream folio-module-sidecar's quarkus-run.jar (built by load/baselines/build-upstream.sh) as the A/B fleet
# runs this build: same variables, on this build's JDK (scripts/find-jdk; v4 needs 21 or later, and `java` on PATH
# may be older). Upstream's EPHEMERAL secret store reads its entries only from the map
# secret-store.ephemeral.content.<key>, and a variable's name cannot hold a key's hyphens, so each
# SECRET_STORE_EPHEMERAL_CONTENT_<KEY> variable becomes that system property: the key lower-cased, with the FOLIO
# client ids the fleet uses (folio-backend-admin-client, sidecar-module-access-client) hyphenated again. The
# secrets then show in the process list: loopback runs with throw-away realms only.
#   load/baselines/run-upstream.sh /path/to/quarkus-run.jar [ARGS...]
set -euo pipefail
jar=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
props=()
while IFS='=' read -r name value; do
  key=${name#SECRET_STORE_EPHEMERAL_CONTENT_}
  key=${key,,}
  for client in folio-backend-admin-client sidecar-module-access-client; do
    if [[ $key == *_"${client//-/_}" ]]; then
      key=${key%"${client//-/_}"}$client
    fi
  done
  props+=("-Dsecret-store.ephemeral.content.$key=$value")
done < <(env | grep '^SECRET_STORE_EPHEMERAL_CONTENT_' || true)
exec "$("$here/../../scripts/find-jdk")/bin/java" "${props[@]}" -jar "$jar" "$@"
