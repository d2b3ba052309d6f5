# Internal helpers live in one namespace: two files defining the same name make
# the later file (in collation order) silently replace the earlier one. This
# once broke pgbb_fit() and the CR estimators after a merge, so it is checked.
test_that("no top-level function is defined twice in R/", {
  rdir <- testthat::test_path("..", "..", "R")
  skip_if_not(dir.exists(rdir), "package sources not available (installed-package check)")
  defs <- unlist(lapply(list.files(rdir, pattern = "\\.R$", full.names = TRUE), function(f) {
    exprs <- parse(f, keep.source = FALSE)
    nm <- vapply(exprs, function(e) {
      if (is.call(e) && (identical(e[[1L]], as.name("<-")) || identical(e[[1L]], as.name("="))) &&
          is.name(e[[2L]])) as.character(e[[2L]]) else NA_character_
    }, "")
    stats::setNames(rep(basename(f), sum(!is.na(nm))), nm[!is.na(nm)])
  }))
  dup <- unique(names(defs)[duplicated(names(defs))])
  expect_identical(dup, character(0),
                   info = paste(vapply(dup, function(d) paste(d, ":", paste(defs[names(defs) == d], collapse = ", ")), ""), collapse = "; "))
})
