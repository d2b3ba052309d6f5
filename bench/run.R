# One entry point for every benchmark (issue 9): `Rscript bench/run.R` or
# `make bench`. Runs each bench/cases-*.R file in this process (each returns a
# data frame of bench_case() rows) and prints one table with the machine.
suppressPackageStartupMessages(library(pgbb))
here <- if (file.exists("bench/common.R")) "bench" else "."
source(file.path(here, "common.R"))
files <- sort(list.files(here, pattern = "^cases-.*\\.R$", full.names = TRUE))
args <- commandArgs(TRUE)
if (length(args)) files <- files[grepl(paste(args, collapse = "|"), basename(files))]
cat(machine_info(), "\n")
cat(sprintf("pgbb %s; one thread; median of 3 runs per timing\n\n",
            as.character(utils::packageVersion("pgbb"))))
tab <- do.call(rbind, lapply(files, function(f) {
  cat(sprintf("running %s ...\n", basename(f)))
  env <- new.env()
  sys.source(f, envir = env)
  env$cases()
}))
cat("\n")
print_bench_table(tab)
