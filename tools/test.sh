#!/usr/bin/env bash
# Installs pgbb from this checkout and runs the whole test suite: the C++ core's
# own driver under AddressSanitizer + UndefinedBehaviorSanitizer, then the R
# tests including the slower statistical ones (PGBB_SLOW_TESTS=true unless
# already set). Exits non-zero on any failure and ends with "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install.sh

core_log=$(mktemp)
if make -s -C src/core/tests sanitize >"$core_log" 2>&1; then core_status=0; else core_status=1; fi
cat "$core_log"
summary=$(grep -E '^[0-9]+ cases, [0-9]+ failed$' "$core_log" | tail -n 1 || true)
if [ -n "$summary" ]; then
  export PGBB_CORE_CHECKS=$(echo "$summary" | cut -d' ' -f1)
  export PGBB_CORE_FAILED=$(echo "$summary" | cut -d' ' -f3)
else
  export PGBB_CORE_CHECKS=0 PGBB_CORE_FAILED=1   # the driver did not build or crashed
fi
[ "$core_status" = 0 ] || [ "$PGBB_CORE_FAILED" != 0 ] || export PGBB_CORE_FAILED=1

export NOT_CRAN=true
export PGBB_SLOW_TESTS="${PGBB_SLOW_TESTS:-true}"
Rscript --vanilla tools/run-tests.R
