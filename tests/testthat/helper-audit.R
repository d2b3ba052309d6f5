# Helpers for the audit tests (test-bad-input.R, test-no-data-derived-bounds.R).

# Root of the package sources (with R/ and src/) for the source-level checks: the
# repository when the tests run from it (tools/run-tests.R), the unpacked sources under
# R CMD check (<pkg>.Rcheck/00_pkg_src/pgbb); NULL when neither is available.
pgbb_source_root <- function() {
  cands <- c(testthat::test_path("..", ".."),
             testthat::test_path("..", "..", "00_pkg_src", "pgbb"))
  for (d in cands)
    if (file.exists(file.path(d, "DESCRIPTION")) && dir.exists(file.path(d, "R")) &&
        dir.exists(file.path(d, "src")))
      return(normalizePath(d))
  NULL
}
