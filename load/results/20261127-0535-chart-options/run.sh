#!/usr/bin/env bash
# The commands that made this report, from the project's root after ./image/build.sh:
#   load/results/20261127-0535-chart-options/start-offline.sh 3 > start-offline.txt   ("started in", 4 sets)
#   load/chart-options.sh --out load/results/20261127-0535-chart-options/burst          (VmHWM, upload bursts)
set -euo pipefail
cd "$(dirname "$0")/../../.."
here=load/results/20261127-0535-chart-options
"$here/start-offline.sh" "${1:-3}" | tee "$here/start-offline.txt"
load/chart-options.sh --out "$here/burst"
