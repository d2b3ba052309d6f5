#!/usr/bin/env bash
# Runs every reproduction in inst/scripts/ at toy settings (a few hundred
# iterations, one replicate) into a temporary directory, to show that each
# script still runs against the installed package. The numbers it writes mean
# nothing; the full-scale settings are in each script's header.
# Usage: bash tools/smoke-scripts.sh [out-dir]
set -u
cd "$(dirname "$0")/.."
out="${1:-$(mktemp -d)}"
data="${PGBB_SHARED_DATA:-../shared/data}"
mkdir -p "$out"
fail=0
run() {
  local name="$1"; shift
  local t0=$SECONDS
  if Rscript "$@" > "$out/$name.log" 2>&1; then
    echo "ok    $name ($((SECONDS - t0)) s)"
  else
    echo "FAIL  $name ($((SECONDS - t0)) s): see $out/$name.log"; fail=1
  fi
}
run simulations inst/scripts/simulations.R --parts=regression,gamma,expfam,blocking --reps=1 --n=10000 \
  --eps=1 --iterations=200 --hidden=16 --ng_iterations=2000 --sgld_iterations=2000 --draws=200 --out="$out"
run simulations-intercept inst/scripts/simulations.R --parts=regression --methods=PGBB --intercept=1 \
  --reps=1 --n=10000 --eps=1 --iterations=200 --hidden=16 --out="$out"
run one-shot-cr-tables inst/scripts/one-shot-cr-tables.R reps=2 n=2000 out="$out"
run returns-to-schooling inst/scripts/returns-to-schooling.R --reps=1 --eps=1 --iterations=200 \
  --sgld_iterations=2000 --out="$out"
run noisy-gibbs-mixing inst/scripts/noisy-gibbs-mixing.R --reps=1 --long=2e4
if [ -f "$data/census80.dta" ]; then
  run census1980 inst/scripts/census1980.R --data="$data/census80.dta" --reps=1 --eps=1 --iterations=200 \
    --sgld_iterations=2000 --out="$out"
else
  echo "skip  census1980 (no $data/census80.dta)"
fi
run birthweight inst/scripts/birthweight.R --reps=1 --eps=4 --iterations=200 --sgld_iterations=2000 --out="$out"
run schedule-study inst/scripts/schedule-study.R --app=natality --eps=4,Inf --reps=1 --configs=base,single \
  --iterations=200 --out="$out"
run birthweight-scale inst/scripts/birthweight-scale.R --n=20000 --eps=1 --iterations=200 --out="$out"
echo "outputs in $out"
exit $fail
