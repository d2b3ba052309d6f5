# One entry point for every benchmark: `Rscript bench/run.R` or
# `make bench`. Runs each bench/cases-*.R file in this process (each defines
# cases(), returning a data frame of bench_case() rows) and prints one table
# with the machine.
#
#   Rscript bench/run.R                      # everything, median of 3 runs
#   BENCH_RUNS=5 Rscript bench/run.R         # median of 5
#   BENCH_QUICK=1 BENCH_RUNS=1 Rscript bench/run.R   # smaller sizes: smoke test
#   Rscript bench/run.R --only=natality      # cases whose name matches (regex)
#   Rscript bench/run.R cr census            # only bench/cases-*cr*, *census* files
#
# Run it with the installed package (make bench installs first).
# One thread everywhere: conquer (OpenMP) would otherwise spin threads on the
# shared cores; our code is single-threaded too. Set before any package loads
# its OpenMP runtime.
Sys.setenv(OMP_NUM_THREADS = "1", OPENBLAS_NUM_THREADS = "1")
suppressPackageStartupMessages(library(pgbb))
options(width = 250)
here <- if (file.exists("bench/common.R")) "bench" else "."
source(file.path(here, "common.R"))
files <- sort(list.files(here, pattern = "^cases-.*\\.R$", full.names = TRUE))
args <- commandArgs(TRUE)
only <- sub("^--only=", "", grep("^--only=", args, value = TRUE))
if (length(only)) options(pgbb.bench.only = paste(only, collapse = "|"))
args <- grep("^--", args, value = TRUE, invert = TRUE)
if (length(args)) files <- files[grepl(paste(args, collapse = "|"), basename(files))]
started <- Sys.time()
cat(machine_info(), "\n")
cat(sprintf("pgbb %s; one thread; median of %d run(s) per timing%s; started %s UTC\n\n",
            as.character(utils::packageVersion("pgbb")), bench_runs(),
            if (bench_quick()) "; BENCH_QUICK=1 (reduced sizes, NOT the issue's settings)" else "",
            format(started, "%Y-%m-%d %H:%M", tz = "UTC")))
tab <- do.call(rbind, lapply(files, function(f) {
  cat(sprintf("running %s ...\n", basename(f)))
  env <- new.env()
  sys.source(f, envir = env)
  env$cases()
}))
cat(sprintf("\nfinished %s UTC after %.1f min; load average at end: %s\n\n",
            format(Sys.time(), "%H:%M", tz = "UTC"),
            as.numeric(difftime(Sys.time(), started, units = "mins")), load_average()))
if (is.null(tab) || !nrow(tab)) {
  cat("no case selected\n")
} else {
  print_bench_table(tab)
  cat("\nTimes in seconds: CPU = user + system time (one core's work), wall = elapsed;",
      "median of runs. ratio = alternative CPU / ours CPU.",
      "Targets are judged on CPU time (the machine is shared).\n")
}
