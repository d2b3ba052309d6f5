#!/usr/bin/env bash
# Installs pgbb from this checkout and runs the whole test suite: the C++ core's
# own drivers under AddressSanitizer + UndefinedBehaviorSanitizer and under
# ThreadSanitizer, then the R
# tests including the slower statistical ones (PGBB_SLOW_TESTS=true unless
# already set). Exits non-zero on any failure and ends with "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install.sh

core_log=$(mktemp)
# `sanitize`: ASan + UBSan drivers; `tsan`: the threaded subset pass under
# ThreadSanitizer. Each driver ends with "N cases, M failed"; they are summed.
if make -s -C src/core/tests sanitize tsan >"$core_log" 2>&1; then core_status=0; else core_status=1; fi
cat "$core_log"
summaries=$(grep -E '^[0-9]+ cases, [0-9]+ failed$' "$core_log" || true)
if [ "$(echo "$summaries" | grep -c cases)" = 2 ]; then
  export PGBB_CORE_CHECKS=$(echo "$summaries" | awk '{s += $1} END {print s}')
  export PGBB_CORE_FAILED=$(echo "$summaries" | awk '{s += $3} END {print s}')
else
  export PGBB_CORE_CHECKS=0 PGBB_CORE_FAILED=1   # the driver did not build or crashed
fi
[ "$core_status" = 0 ] || [ "$PGBB_CORE_FAILED" != 0 ] || export PGBB_CORE_FAILED=1

export NOT_CRAN=true
export PGBB_SLOW_TESTS="${PGBB_SLOW_TESTS:-true}"
Rscript --vanilla tools/run-tests.R
