# Runs tests/testthat against the installed package and prints the closing line
# "N passed, N failed" that the CI runner reads (testthat's own summary is not
# read). Results of the C++ core driver (tools/test.sh) are added when given.
suppressPackageStartupMessages(library(testthat))
res <- testthat::test_dir("tests/testthat", package = "pgbb", load_package = "installed",
                          reporter = testthat::SummaryReporter$new(show_praise = FALSE),
                          stop_on_failure = FALSE, stop_on_warning = FALSE)
df <- as.data.frame(res)
core_checks <- as.integer(Sys.getenv("PGBB_CORE_CHECKS", "0"))
core_failed <- as.integer(Sys.getenv("PGBB_CORE_FAILED", "0"))
passed <- sum(df$passed) + core_checks - core_failed
failed <- sum(df$failed) + sum(df$error) + core_failed
skipped <- sum(df$skipped)
if (core_checks > 0 || core_failed > 0)
  cat(sprintf("C++ core driver (ASan/UBSan): %d cases, %d failed\n", core_checks, core_failed))
cat(sprintf("%d passed, %d failed, %d skipped\n", passed, failed, skipped))
quit(status = if (failed > 0) 1L else 0L)
