#!/usr/bin/env bash
# Builds the real folio-module-sidecar at a tag, on a machine that reaches only Maven Central, and prints the path of
# its quarkus-run.jar (last line of stdout). Nothing of upstream's is committed: checkouts and builds live in the cache.
#   load/baselines/build-upstream.sh v4.0.3
#   --source URL|PATH     where folio-module-sidecar comes from (default https://github.com/folio-org/folio-module-sidecar;
#                         a bare mirror path works where the machine has no internet)
#   --tools URL|PATH      applications-poc-tools (default github), built first: folio-secret-store-common, folio-auth-openid
#   --checkstyle URL|PATH folio-java-checkstyle (default github), built first: upstream's build plugin needs it
#   --quarkus-bom V       io.quarkus.platform:quarkus-bom pinned to a version Maven Central serves (default 3.34.1, the
#                         one this project builds on; v4.0.3 asks for 3.34.3)
#   --cache DIR           default target/baselines (a second call with the same tag reuses the built jar)
# Test-scoped dependencies are removed from the cached checkouts' poms and tests are not compiled: FOLIO's test
# helpers are not on Maven Central. Lombok runs as an annotation processor, which JDK 23+ runs only when asked
# (-Dmaven.compiler.proc=full). The tools and checkstyle, once installed in the local Maven repository, are reused.
set -euo pipefail
cd "$(dirname "$0")/../.."
tag=""; gh=https://github.com/folio-org
source=$gh/folio-module-sidecar; tools=$gh/applications-poc-tools; checkstyle=$gh/folio-java-checkstyle
bom=3.34.1; cache=target/baselines
while [ $# -gt 0 ]; do
  case "$1" in
    --source) source=$2; shift 2 ;;
    --tools) tools=$2; shift 2 ;;
    --checkstyle) checkstyle=$2; shift 2 ;;
    --quarkus-bom) bom=$2; shift 2 ;;
    --cache) cache=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
    *) tag=$1; shift ;;
  esac
done
[ -n "$tag" ] || { echo "usage: $0 <tag> [options] (see --help)" >&2; exit 2; }
mkdir -p "$cache"; cache=$(cd "$cache" && pwd)
jar=$cache/folio-module-sidecar-$tag/target/quarkus-app/quarkus-run.jar
if [ -f "$jar" ]; then echo "cached: $jar" >&2; echo "$jar"; exit 0; fi
log=$cache/build-$tag.log; : >"$log"
JAVA_HOME=$(scripts/find-jdk); export JAVA_HOME # upstream's build plugins need Java 21+
mvn=("$PWD/mvnw" -B -q -Dmaven.test.skip=true -Dcheckstyle.skip -Djacoco.skip -Dmaven.javadoc.skip -Dmaven.source.skip)

checkout() { # repo-url-or-path ref dir
  rm -rf "$3"
  git clone -q --no-checkout "$1" "$3" >>"$log" 2>&1
  git -C "$3" -c advice.detachedHead=false checkout -q "$2" >>"$log" 2>&1
}
drop_test_deps() { # every pom under a directory: no <dependency> of scope test
  find "$1" -name pom.xml -print0 | xargs -0 python3 -c '
import re, sys
for f in sys.argv[1:]:
    s = open(f).read()
    t = re.sub(r"\s*<dependency>(?:(?!</dependency>).)*?<scope>test</scope>(?:(?!</dependency>).)*?</dependency>", "", s, flags=re.S)
    if t != s: open(f, "w").write(t)'
}
prop() { git -C "$1" show HEAD:pom.xml | sed -n "s:.*<$2>\(.*\)</$2>.*:\1:p" | head -1; }

start=$(date +%s)
side=$cache/folio-module-sidecar-$tag
checkout "$source" "$tag" "$side"
tools_v=$(prop "$side" applications-poc-tools.version); style_v=$(prop "$side" folio-java-checkstyle.version)
echo "folio-module-sidecar $tag needs applications-poc-tools $tools_v, folio-java-checkstyle $style_v; BOM $bom" >&2

m2=${MAVEN_REPO:-$HOME/.m2/repository}/org/folio
if [ -n "$style_v" ] && [ ! -f "$m2/folio-java-checkstyle/$style_v/folio-java-checkstyle-$style_v.jar" ]; then
  checkout "$checkstyle" "v$style_v" "$cache/folio-java-checkstyle-$style_v"
  drop_test_deps "$cache/folio-java-checkstyle-$style_v"
  "${mvn[@]}" -f "$cache/folio-java-checkstyle-$style_v/pom.xml" install >>"$log" 2>&1
fi
if [ ! -f "$m2/folio-auth-openid/$tools_v/folio-auth-openid-$tools_v.jar" ]; then
  checkout "$tools" "v$tools_v" "$cache/applications-poc-tools-$tools_v"
  drop_test_deps "$cache/applications-poc-tools-$tools_v"
  "${mvn[@]}" -f "$cache/applications-poc-tools-$tools_v/pom.xml" install \
    -pl folio-secret-store/folio-secret-store-common,folio-auth-openid -am >>"$log" 2>&1
fi

drop_test_deps "$side"
"${mvn[@]}" -f "$side/pom.xml" package -Dquarkus.platform.version="$bom" -Dmaven.compiler.proc=full >>"$log" 2>&1 \
  || { echo "build failed, see $log" >&2; tail -30 "$log" >&2; exit 1; }
echo "built $tag in $(( $(date +%s) - start )) s: $jar" >&2
echo "$jar"
