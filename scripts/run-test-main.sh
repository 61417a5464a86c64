#!/usr/bin/env bash
# Runs a main class of the test sources (the demo, the load run) on the packaged build, with the test classpath
# and the Keycloak distribution the build unpacked: scripts/run-test-main.sh <class> [args...]
set -euo pipefail
cd "$(dirname "$0")/.."
JAVA_HOME=$(.ci/find-jdk)
export JAVA_HOME
./mvnw -q -B package -Dmaven.test.skip.exec=true dependency:build-classpath \
  -Dmdep.outputFile=target/test-main.classpath -Dmdep.includeScope=test
KEYCLOAK_HOME=$(ls -d target/keycloak/keycloak-* | head -n 1)
main=$1
shift
exec "$JAVA_HOME/bin/java" -Dkeycloak.home="$KEYCLOAK_HOME" -Djava.util.logging.manager=org.jboss.logmanager.LogManager \
  -cp "target/test-classes:$(cat target/test-main.classpath)" "$main" "$@"
