#!/usr/bin/env bash
# Installs every package pgbb needs to build, test and run its vignettes.
# Idempotent and quick when everything is present: it only asks R which
# packages are missing, then takes Debian's prebuilt r-cran-* packages where
# they exist and CRAN for the rest.
set -euo pipefail

pkgs="Rcpp RcppEigen testthat roxygen2 knitr rmarkdown markdown quantreg AER generics posterior cli foreign Rmpfr conquer"

missing() {
  Rscript --vanilla -e 'p <- commandArgs(TRUE); cat(p[!vapply(p, requireNamespace, TRUE, quietly = TRUE)])' $pkgs
}

todo=$(missing)
[ -z "$todo" ] && exit 0

if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
  debs=""
  for p in $todo; do debs="$debs r-cran-$(echo "$p" | tr '[:upper:]' '[:lower:]')"; done
  echo "Installing from Debian:$debs"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq || true
  # Install what Debian has, one by one, so one missing name does not block the rest.
  for d in $debs; do
    if apt-cache show "$d" >/dev/null 2>&1; then
      apt-get install -y -qq --no-install-recommends "$d" >/dev/null || echo "apt could not install $d"
    fi
  done
  todo=$(missing)
fi

if [ -n "$todo" ]; then
  echo "Installing from CRAN: $todo"
  Rscript --vanilla -e 'install.packages(commandArgs(TRUE), repos = "https://cloud.r-project.org", Ncpus = 2)' $todo
  todo=$(missing)
  if [ -n "$todo" ]; then echo "Could not install: $todo" >&2; exit 1; fi
fi
