#!/usr/bin/env bash
# Installs pgbb from this checkout and runs the whole test suite, including the
# slower statistical tests (PGBB_SLOW_TESTS=true unless already set). Exits
# non-zero on any failure and ends with the line "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install.sh
export PGBB_SLOW_TESTS="${PGBB_SLOW_TESTS:-true}"
Rscript --vanilla tools/run-tests.R
