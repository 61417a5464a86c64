#!/usr/bin/env bash
# Runs the demo: real Keycloak with two tenants, a stub module and the sidecar. `./demo.sh --exit` stops after
# printing and checking the allowed and the denied curl.
set -euo pipefail
cd "$(dirname "$0")"
JAVA_HOME=$(.ci/find-jdk)
export JAVA_HOME
./mvnw -q -B package -Dmaven.test.skip.exec=true dependency:build-classpath \
  -Dmdep.outputFile=target/demo.classpath -Dmdep.includeScope=test
KEYCLOAK_HOME=$(ls -d target/keycloak/keycloak-* | head -n 1)
exec "$JAVA_HOME/bin/java" -Dkeycloak.home="$KEYCLOAK_HOME" -Djava.util.logging.manager=org.jboss.logmanager.LogManager \
  -cp "target/test-classes:$(cat target/demo.classpath)" org.folio.sidecar.support.Demo "$@"
