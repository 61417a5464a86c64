#!/usr/bin/env bash
# Runs a main class of one module (the demo in testkit, the A/B harness and the probes in load) on that module's
# classpath, after building it and the sidecar it starts, tests skipped: scripts/run-main.sh <module> <class> [args...]
set -euo pipefail
cd "$(dirname "$0")/.."
JAVA_HOME=$(scripts/find-jdk)
export JAVA_HOME
module=$1
main=$2
shift 2
echo "[run-main] building the sidecar and $module (tests skipped; a few minutes on a busy machine)..."
built=$SECONDS
./mvnw -q -B package -pl "sidecar,$module" -am -Dmaven.test.skip=true dependency:build-classpath \
  -Dmdep.outputFile=target/run.classpath -Dmdep.includeScope=runtime
echo "[run-main] built in $((SECONDS - built)) s; starting $main"
KEYCLOAK_HOME=$(ls -d "$PWD"/testkit/target/keycloak/keycloak-* | head -n 1)
exec "$JAVA_HOME/bin/java" -Dkeycloak.home="$KEYCLOAK_HOME" -Djava.util.logging.manager=org.jboss.logmanager.LogManager \
  -cp "$module/target/classes:$(cat "$module/target/run.classpath")" "$main" "$@"
