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

test_that("the shipped natality data set has the documented shape and coded ranges", {
  e <- new.env()
  data("natality2022", package = "pgbb", envir = e)
  d <- e$natality2022
  expect_s3_class(d, "data.frame")
  expect_identical(dim(d), c(50000L, 12L))
  expect_identical(names(d), c("BirthWeight", "Boy", "Married", "Black", "Age", "AgeSq", "Education",
                               "Precare", "Smoker", "CigPerDay", "WeightGain", "WeightGainSq"))
  expect_false(anyNA(d))
  for (v in c("Boy", "Married", "Black", "Smoker")) expect_true(all(d[[v]] %in% 0:1), info = v)
  expect_true(all(d$Education %in% 0:3) && all(d$Precare %in% 0:3))
  expect_true(all(d$CigPerDay >= 0 & d$CigPerDay <= 6))
  expect_true(all(d$Age >= 18 & d$Age <= 45))
  expect_equal(d$AgeSq, d$Age^2)
  expect_equal(d$WeightGainSq, d$WeightGain^2)
  expect_lt(.row_names_info(d), 0)  # automatic row names: no record identifiers
})

# A vignette's inline R code ends at its first backtick, so a backtick inside
# it (a code span in a sentence built by sprintf()) cuts the code short and
# the vignette fails to build. The test command does not build vignettes, so
# every inline expression and chunk is parsed here.
test_that("every vignette's inline R code and chunks parse", {
  vdir <- testthat::test_path("..", "..", "vignettes")
  skip_if_not(dir.exists(vdir), "package sources not available (installed-package check)")
  skip_if_not_installed("knitr")
  files <- list.files(vdir, pattern = "\\.Rmd$", full.names = TRUE)
  expect_gt(length(files), 0L)
  for (f in files) {
    text <- paste(readLines(f, warn = FALSE), collapse = "\n")
    inline <- regmatches(text, gregexpr(knitr::all_patterns$md$inline.code, text, perl = TRUE))[[1]]
    code <- sub("^`r[ #]", "", sub("`$", "", inline))
    bad <- code[!vapply(code, function(x) !inherits(try(parse(text = x), silent = TRUE), "try-error"), TRUE)]
    expect_identical(substr(bad, 1, 80), character(0), info = basename(f))
    lines <- readLines(f, warn = FALSE)
    opens <- grep("^```\\{r", lines)
    closes <- grep("^```\\s*$", lines)
    expect_gt(length(opens), 0L)
    for (o in opens) {
      end <- min(closes[closes > o])
      body <- if (end > o + 1L) lines[(o + 1L):(end - 1L)] else character(0)
      expect_no_error(parse(text = body, keep.source = FALSE), message = sprintf("%s, chunk at line %d", basename(f), o))
    }
  }
})
