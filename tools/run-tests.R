# Runs tests/testthat against the installed package and prints the closing line
# "N passed, N failed" that the CI runner reads (testthat's own summary is not read).
suppressPackageStartupMessages(library(testthat))
res <- testthat::test_dir("tests/testthat", package = "pgbb", load_package = "installed",
                          reporter = testthat::SummaryReporter$new(show_praise = FALSE),
                          stop_on_failure = FALSE, stop_on_warning = FALSE)
df <- as.data.frame(res)
passed <- sum(df$passed)
failed <- sum(df$failed) + sum(df$error)
skipped <- sum(df$skipped)
cat(sprintf("%d passed, %d failed, %d skipped\n", passed, failed, skipped))
quit(status = if (failed > 0) 1L else 0L)
