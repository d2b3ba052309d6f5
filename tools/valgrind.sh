#!/usr/bin/env bash
# Memcheck run of a representative R workload (tools/valgrind-subset.R: pgbb(),
# pgbb_fit(), posterior_draws(), the accountant, cr_gs/cr_ss and the CR baselines,
# noisy_gibbs, dp_bootstrap, the exact and blocked Bayesian bootstrap) against a
# pgbb built WITHOUT sanitizers (valgrind and ASan cannot share a process).
#
# Usage: bash tools/valgrind.sh            # installs this checkout into a temp library first
#        PGBB_VALGRIND_LIB=/path bash tools/valgrind.sh   # use an existing non-sanitized install
# Exit status: 0 when memcheck reports no error, 42 (valgrind's --error-exitcode) otherwise.
# Not part of tools/test.sh: it takes minutes (valgrind slows R ~30-50x).
#
# Last result (2026-11-29, R 4.2.2, valgrind 3.19.0, -g -O2, 2 shared cores): memcheck
# ERROR SUMMARY: 0 errors from 0 contexts; 0 invalid reads/writes, no frame in pgbb.so;
# run time 217 s (the workload takes ~5 s without valgrind); rerun after the interrupt
# glue change (src/interrupt.h): again 0 errors, 268 s on a busier machine.
set -uo pipefail
cd "$(dirname "$0")/.."

lib="${PGBB_VALGRIND_LIB:-}"
if [ -z "$lib" ]; then
  lib="$(mktemp -d)"
  echo "Installing pgbb into $lib (default compiler flags, no sanitizers)..."
  R CMD INSTALL --no-multiarch --preclean -l "$lib" . >"$lib/install.log" 2>&1 || {
    tail -50 "$lib/install.log"; echo "R CMD INSTALL failed" >&2; exit 1; }
fi
so="$lib/pgbb/libs/pgbb.so"
[ -f "$so" ] || { echo "no pgbb.so under $lib" >&2; exit 1; }
if ldd "$so" | grep -Eq 'lib(a|ub)san'; then
  echo "$so links a sanitizer runtime; rebuild without -fsanitize for valgrind" >&2; exit 1
fi

log="${PGBB_VALGRIND_LOG:-/tmp/pgbb-valgrind.log}"
start=$(date +%s)
R_LIBS="$lib${R_LIBS:+:$R_LIBS}" R --vanilla --quiet \
  -d "valgrind --tool=memcheck --error-exitcode=42 --leak-check=no --track-origins=yes --log-file=$log" \
  -f tools/valgrind-subset.R
status=$?
secs=$(( $(date +%s) - start ))

summary=$(grep -h "ERROR SUMMARY" "$log"* | tail -1)
pkg=$(grep -cE "pgbb\.so" "$log"* | awk -F: '{s += $NF} END {print s + 0}')
invalid=$(grep -hcE "Invalid (read|write)" "$log"* | awk '{s += $1} END {print s + 0}')
echo "valgrind: ${summary#*== }"
echo "valgrind: 'Invalid read/write' reports: $invalid; stack frames in pgbb.so: $pkg; run time ${secs}s"
echo "valgrind: full log in $log"
exit $status
