#!/usr/bin/env bash
# Runs the JMH benchmarks (decision-cache hit path) and prints ns/op and bytes/op.
set -euo pipefail
cd "$(dirname "$0")/.."
JAVA_HOME=$(.ci/find-jdk)
export JAVA_HOME
./mvnw -q -B test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
exec "$JAVA_HOME/bin/java" -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" \
  org.folio.sidecar.benchmark.DecisionCacheHitBenchmark "$@"
