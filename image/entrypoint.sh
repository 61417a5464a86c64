#!/bin/sh
# The image's ENTRYPOINT: builds the java command from the operator's options and the image's floor, then execs it.
# POSIX sh with builtins only (the image has dash and no other tool).
#
#   JAVA_OPTS          the operator's options (folio-helm-v2 sets them); they replace nothing of the floor below
#   JAVA_OPTIONS       more options, after JAVA_OPTS (upstream's launcher, run-java.sh, reads this name)
#   JAVA_MAX_MEM_RATIO the heap as a percentage of the container's memory (-XX:MaxRAMPercentage, whole number part),
#                      when the options name no maximum heap; 0 or unset: the floor's -Xmx
#   JAVA_DEBUG         true: the JDWP agent on JAVA_DEBUG_PORT (5005), suspended when JAVA_DEBUG_SUSPEND is true
#                      (JAVA_ENABLE_DEBUG and JAVA_DEBUG_ENABLE, the older launcher's names, alike)
#   JAVA_DIAGNOSTICS   true: native memory tracking (summary) and GC logging to standard output
#   JAVA_OPTS_APPEND   options after all of the above (also when JAVA_OPTS is set)
#   JAVA_OPTS_FLOOR    the image's options (image/Containerfile): each one is added unless the options above set
#                      the same JVM option (any collector counts as the collector, -XX:MaxHeapSize or
#                      -XX:MaxRAMPercentage as -Xmx, -XX:ThreadStackSize as -Xss)
#   JAVA_AOT_OPTS      when set (even empty), used as it is; unset: the AOT cache trained for the chosen collector,
#                      SIDECAR_AOT_CACHE_DIR/app-zgc.aot under ZGC, app-serial.aot under any other
# One line on standard error says what the image added. `entrypoint.sh --dry-run` prints the command, one argument
# per line, instead of running it; any other arguments go to the application.
set -eu
# the operators' options are split on white space, as upstream's launcher splits them, but never globbed
set -f

dry_run=false
if [ "${1:-}" = "--dry-run" ]; then
  dry_run=true
  shift
fi

# the patterns a JVM option is known by: the floor's option is "set" when an operator's option matches one
patterns() {
  case $1 in
    -XX:+Use*GC | -XX:-Use*GC) echo '-XX:+Use*GC' ;;
    -Xmx* | -XX:MaxHeapSize=* | -XX:MaxRAMPercentage=* | -XX:MaxRAM=*)
      echo '-Xmx* -XX:MaxHeapSize=* -XX:MaxRAMPercentage=* -XX:MaxRAM=*' ;;
    -Xms* | -XX:InitialHeapSize=*) echo '-Xms* -XX:InitialHeapSize=*' ;;
    -Xss* | -XX:ThreadStackSize=*) echo '-Xss* -XX:ThreadStackSize=*' ;;
    -Xmn* | -XX:NewSize=* | -XX:MaxNewSize=*) echo '-Xmn* -XX:NewSize=* -XX:MaxNewSize=*' ;;
    -XX:+* | -XX:-*) echo "-XX:+${1#-XX:?} -XX:-${1#-XX:?}" ;;
    *=*) echo "${1%%=*}=*" ;;
    *) echo "$1" ;;
  esac
}

# true when one of the words in $2 is the option $1 under any of its names
names() {
  for pattern in $(patterns "$1"); do
    for word in $2; do
      case $word in
        $pattern) return 0 ;;
      esac
    done
  done
  return 1
}

is_true() {
  case ${1:-} in
    true | TRUE | True | yes | y | 1) return 0 ;;
    *) return 1 ;;
  esac
}

# one line on standard error: one JSON object when the sidecar's own lines are (QUARKUS_LOG_CONSOLE_JSON_ENABLED,
# or upstream's QUARKUS_LOG_CONSOLE_JSON, as application.properties reads them), so a log pipeline parses it too
say() {
  if is_true "${QUARKUS_LOG_CONSOLE_JSON_ENABLED:-${QUARKUS_LOG_CONSOLE_JSON:-}}"; then
    rest=$2 text=""
    while [ -n "$rest" ]; do
      char=${rest%"${rest#?}"}
      rest=${rest#?}
      case $char in
        \\ | \") text="$text\\$char" ;;
        *) text="$text$char" ;;
      esac
    done
    printf '{"level":"%s","loggerName":"entrypoint","message":"%s"}\n' "$1" "$text" >&2
  else
    echo "$2" >&2
  fi
}

operator="${JAVA_OPTS:-} ${JAVA_OPTIONS:-}"
ratio=${JAVA_MAX_MEM_RATIO:-0}
ratio=${ratio%%.*}
case $ratio in
  '' | *[!0-9]*)
    say ERROR "sidecar entrypoint: JAVA_MAX_MEM_RATIO must be a percentage, not '${JAVA_MAX_MEM_RATIO}'"
    exit 1 ;;
esac
if [ "$ratio" -gt 0 ] && ! names -Xmx "$operator"; then
  operator="$operator -XX:MaxRAMPercentage=$ratio"
fi
if is_true "${JAVA_DEBUG:-${JAVA_ENABLE_DEBUG:-${JAVA_DEBUG_ENABLE:-}}}"; then
  suspend=n
  if is_true "${JAVA_DEBUG_SUSPEND:-}"; then
    suspend=y
  fi
  operator="$operator -agentlib:jdwp=transport=dt_socket,server=y,suspend=$suspend,address=*:${JAVA_DEBUG_PORT:-5005}"
fi
if is_true "${JAVA_DIAGNOSTICS:-}"; then
  operator="$operator -XX:NativeMemoryTracking=summary -Xlog:gc*:stdout:time"
fi
operator="$operator ${JAVA_OPTS_APPEND:-}"

added=""
for option in ${JAVA_OPTS_FLOOR:-}; do
  if ! names "$option" "$operator"; then
    added="$added $option"
  fi
done

# the collector the JVM will run: the last one named wins, as in the JVM
collector=""
for word in $operator $added; do
  case $word in
    -XX:+Use*GC) collector=${word#-XX:+Use} ;;
  esac
done
if [ -n "${JAVA_AOT_OPTS+set}" ]; then
  aot=$JAVA_AOT_OPTS
  aot_said="JAVA_AOT_OPTS"
else
  # a cache trained with compressed oops (Serial, G1, Parallel) is refused under ZGC, and the reverse
  case $collector in
    ZGC) cache=${SIDECAR_AOT_CACHE_DIR:-/deployments}/app-zgc.aot ;;
    *) cache=${SIDECAR_AOT_CACHE_DIR:-/deployments}/app-serial.aot ;;
  esac
  if [ -f "$cache" ]; then
    aot="-XX:AOTCache=$cache"
    aot_said=$cache
  else
    aot=""
    aot_said="none"
  fi
fi

# upstream's launcher variables this image does not read: named, so that none is dropped silently
unread=""
for name in JAVA_INITIAL_MEM_RATIO JAVA_INIT_MEM_RATIO JAVA_MAX_INITIAL_MEM JAVA_CORE_LIMIT JAVA_MAX_CORE \
  JAVA_APP_DIR JAVA_LIB_DIR JAVA_APP_JAR JAVA_MAIN_CLASS JAVA_CLASSPATH \
  JAVA_APP_NAME JAVA_ARGS GC_MIN_HEAP_FREE_RATIO GC_MAX_HEAP_FREE_RATIO GC_TIME_RATIO \
  GC_ADAPTIVE_SIZE_POLICY_WEIGHT GC_METASPACE_SIZE GC_MAX_METASPACE_SIZE GC_CONTAINER_OPTIONS; do
  if eval "[ -n \"\${$name+set}\" ]"; then
    unread="$unread $name"
  fi
done

said="sidecar entrypoint: collector ${collector:-JVM default}, AOT cache $aot_said, image options added:${added:- none}"
if [ -n "$unread" ]; then
  said="$said; not read here (upstream's launcher variables):$unread"
fi
say INFO "$said"

set -- /opt/java/bin/java $aot $operator $added -jar /deployments/quarkus-run.jar "$@"
if $dry_run; then
  for argument in "$@"; do
    echo "$argument"
  done
  exit 0
fi
exec "$@"
