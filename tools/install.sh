#!/usr/bin/env bash
# Installs the dependencies, then builds and installs pgbb from this checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
MAKEFLAGS="${MAKEFLAGS:--j2}" R CMD INSTALL --no-multiarch --preclean . >/tmp/pgbb-install.log 2>&1 || {
  cat /tmp/pgbb-install.log; echo "R CMD INSTALL failed" >&2; exit 1; }
echo "pgbb installed."
