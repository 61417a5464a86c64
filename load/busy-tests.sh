#!/usr/bin/env bash
# Do the tests hold on a busy machine (issue 42)? The sidecar's whole test suite (surefire's default execution and
# the bulk relays), run after run beside `stress-ng --cpu <cores>`, and for every test class: runs, green runs, the
# longest green streak and whether the last run was green. Every test of the suite that waits on the network, a
# timer or another thread is in it (nearly all are). Writes target/busy-tests/<yyyyMMdd-HHmm>/report.md, appending
# a row after each run, so a run cut short keeps what it measured; the reports of a failed class are kept beside it.
# Not into load/results while it runs: the suite checks that every folder there is in its index (ResultsIndexTest);
# copy the folder there and add its row to keep it.
# Bounded: every run has its own time limit, stress-ng ends with the run (or at its own timeout), loopback only.
#   load/busy-tests.sh                 10 runs
#   --runs N  --minutes-per-run M (default 45)  --cpu N (stress-ng workers, default: the machine's cores)
#   --test PATTERN                     surefire's -Dtest (default: every class)
#   --out DIR                          a folder of an earlier run continues it: its runs count on
set -euo pipefail
cd "$(dirname "$0")/.."
runs=10 per_run=45 cpu=$(nproc) test="" out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --minutes-per-run) per_run=$2; shift 2 ;;
    --cpu) cpu=$2; shift 2 ;;
    --test) test=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
command -v stress-ng >/dev/null || { echo "busy-tests: stress-ng is not installed (apt-get install stress-ng)" >&2; exit 2; }
JAVA_HOME=$(scripts/find-jdk)
export JAVA_HOME
out=${out:-target/busy-tests/$(date -u +%Y%m%d-%H%M)}
mkdir -p "$out"
reports=sidecar/target/surefire-reports
table=$out/classes.tsv
first=1
if [ -f "$out/report.md" ]; then
  first=$(( $(grep -c '^| [0-9]' "$out/report.md") + 1 ))
  sed -i '/^## By class/,$d' "$out/report.md"
  sed -i -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$out/report.md"
else
  : >"$table"
fi
# an attribute of the <testsuite> element in $head
attr() { sed -n "s/.* $1=\"\\([^\"]*\\)\".*/\\1/p" <<<"$head"; }
stress=""
stop_stress() { [ -n "$stress" ] && kill "$stress" 2>/dev/null; wait 2>/dev/null || true; stress=""; }
trap stop_stress EXIT

# the test sources once, so that a run measures the tests, not a compilation beside stress-ng
./mvnw -B -q -o -pl sidecar -am test-compile >/dev/null

selector=(-Dsurefire.failIfNoSpecifiedTests=false)
[ -n "$test" ] && selector+=("-Dtest=$test")
commit=$(git rev-parse --short HEAD)
[ "$first" = 1 ] && {
  echo "# The test suite beside stress-ng --cpu $cpu (from $commit)"
  echo
  echo "$(nproc) cores; \`./mvnw -o -pl sidecar -am test\` (default and bulk-relays executions, then the output check)${test:+, -Dtest=$test},"
  echo "each run bounded at $per_run min. One row per run, written as it ends."
  echo
  echo "| run | commit, started (UTC) | minutes | classes | tests | failed tests | failed classes |"
  echo "|---|---|---|---|---|---|---|"
} >"$out/report.md"

for i in $(seq "$first" $((first + runs - 1))); do
  rm -rf "$reports"
  stress-ng --cpu "$cpu" --timeout "$((per_run * 60))s" >/dev/null 2>&1 &
  stress=$!
  started=$(date -u +%H:%M)
  t0=$SECONDS
  # the test phase as CI runs it (both executions, then the output check for leaked or double-released buffers)
  rc=0
  timeout --kill-after=60 "$((per_run * 60))" ./mvnw -B -o -pl sidecar -am test "${selector[@]}" \
    -Dmaven.test.failure.ignore=true >"$out/run-$i.log" 2>&1 || rc=$?
  minutes=$(( (SECONDS - t0 + 30) / 60 ))
  stop_stress
  classes=0 tests=0 failed=0 failing=()
  for xml in "$reports"/TEST-*.xml; do
    [ -e "$xml" ] || continue
    head=$(grep -m1 -o '<testsuite [^>]*>' "$xml")
    name=$(attr name); n=$(attr tests); f=$(( $(attr failures) + $(attr errors) ))
    classes=$((classes + 1)); tests=$((tests + n)); failed=$((failed + f))
    printf '%s\t%s\t%s\n' "${name##*.}" "$i" "$([ "$f" = 0 ] && echo green || echo red)" >>"$table"
    if [ "$f" != 0 ]; then
      failing+=("${name##*.}")
      mkdir -p "$out/run-$i"
      cp "$reports"/*"$name"[.-]* "$out/run-$i/" 2>/dev/null || true
    fi
  done
  gzip -f "$out/run-$i.log"
  verdict="${failing[*]:--}"
  [ "$rc" = 0 ] || verdict="$verdict; the build ended with $rc ($([ "$rc" = 124 ] && echo "time limit" || echo "see run-$i.log.gz"))"
  echo "| $i | $(git rev-parse --short HEAD) $started | $minutes | $classes | $tests | $failed | $verdict |" >>"$out/report.md"
done

{
  echo
  echo "## By class"
  echo
  echo "| class | runs | green | longest green streak | last run |"
  echo "|---|---|---|---|---|"
  sort -k1,1 -k2,2n "$table" | awk -F'\t' '
    function flush() { if (c != "") printf "| %s | %d | %d | %d | %s |\n", c, runs, green, best, last }
    $1 != c { flush(); c = $1; runs = green = streak = best = 0 }
    { runs++; if ($3 == "green") { green++; streak++; if (streak > best) best = streak } else streak = 0; last = $3 }
    END { flush() }'
} >>"$out/report.md"
echo "busy-tests: $out/report.md"
