#!/usr/bin/env bash
# The A/B load run: baseline (upstream-like cache) against optimized, on one machine, loopback only.
#   load/run-ab.sh            default run (60 tenants, about 10 minutes on 2 cores)
#   load/run-ab.sh --quick    20 tenants, about 3 minutes
#   load/run-ab.sh --tiny     CI's smoke run; add --check to fail unless both variants ran without errors
#   --baseline-cmd "java -jar /path/to/quarkus-run.jar"   any sidecar build as the baseline
#   --out DIR                 where the report goes (default load/results/<timestamp>)
set -euo pipefail
cd "$(dirname "$0")/.."
JAVA_HOME=$(.ci/find-jdk)
export JAVA_HOME
./mvnw -q -B package -Dmaven.test.skip.exec=true dependency:build-classpath \
  -Dmdep.outputFile=target/load.classpath -Dmdep.includeScope=test
./mvnw -q -B -f load/pom.xml test-compile
KEYCLOAK_HOME=$(ls -d target/keycloak/keycloak-* | head -n 1)
exec "$JAVA_HOME/bin/java" -Dkeycloak.home="$KEYCLOAK_HOME" -Djava.util.logging.manager=org.jboss.logmanager.LogManager \
  -cp "target/test-classes:$(cat target/load.classpath)" org.folio.sidecar.load.AbRun "$@"
