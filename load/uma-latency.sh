#!/usr/bin/env bash
# Starts the test platform (real Keycloak, two realms) and measures the UMA decision call: p50/p95/p99.
set -euo pipefail
cd "$(dirname "$0")/.."
JAVA_HOME=$(.ci/find-jdk)
export JAVA_HOME
./mvnw -q -B test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
KEYCLOAK_HOME=$(ls -d target/keycloak/keycloak-* | head -n 1)
exec "$JAVA_HOME/bin/java" -Dkeycloak.home="$KEYCLOAK_HOME" -Djava.util.logging.manager=org.jboss.logmanager.LogManager \
  -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" org.folio.sidecar.benchmark.UmaLatency
