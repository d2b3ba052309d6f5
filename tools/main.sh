#!/usr/bin/env bash
# Sets everything up and runs the main job: a real private analysis.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install.sh
Rscript --vanilla inst/scripts/main.R
