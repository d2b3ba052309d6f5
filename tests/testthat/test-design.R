# The formula-to-unit-box layer (R/design.R): every range is public, nothing is
# read off the data.

frame_and_matrix <- function(formula, data) {
  mf <- model.frame(formula, data)
  mt <- attr(mf, "terms")
  list(mf = mf, mt = mt, X = model.matrix(mt, mf))
}

test_that("column bounds come from declared bounds, factors and interval products", {
  d <- data.frame(educ = c(8, 12, 16), exper = c(1, 10, 30),
                  eth = factor(c("a", "b", "a"), levels = c("a", "b", "c")))
  fm <- frame_and_matrix(~ educ + exper + eth + educ:exper + log(exper), d)
  cb <- pgbb:::.column_bounds(fm$X, fm$mt, fm$mf,
                              list(educ = c(0, 20), exper = c(1, 60)))
  expect_true(all(is.na(cb[, "(Intercept)"])))
  expect_equal(cb[, "educ"], c(lower = 0, upper = 20))
  expect_equal(cb[, "ethb"], c(lower = 0, upper = 1))
  expect_equal(cb[, "ethc"], c(lower = 0, upper = 1))  # an empty level is still public
  expect_equal(unname(cb[, "educ:exper"]), c(0, 1200))
  expect_equal(unname(cb[, "log(exper)"]), log(c(1, 60)))
})

test_that("a missing bound is an error naming the variable", {
  d <- data.frame(educ = 1:5, exper = 1:5)
  fm <- frame_and_matrix(~ educ + exper, d)
  expect_error(pgbb:::.column_bounds(fm$X, fm$mt, fm$mf, list(educ = c(0, 20))), "'exper'")
  fm2 <- frame_and_matrix(~ I(educ^2), d)
  expect_error(pgbb:::.column_bounds(fm2$X, fm2$mt, fm2$mf, list(educ = c(0, 20))),
               "I\\(educ\\^2\\)")
  # ...and declaring the column's own bound fixes it.
  cb <- pgbb:::.column_bounds(fm2$X, fm2$mt, fm2$mf, list(`I(educ^2)` = c(0, 400)))
  expect_equal(unname(cb[, "I(educ^2)"]), c(0, 400))
})

test_that("bounds must be valid pairs", {
  d <- data.frame(x = 1:5)
  fm <- frame_and_matrix(~ x, d)
  expect_error(pgbb:::.column_bounds(fm$X, fm$mt, fm$mf, list(x = c(3, 1))), "lower < upper")
  expect_error(pgbb:::.column_bounds(fm$X, fm$mt, fm$mf, list(x = c(0, Inf))), "finite")
  expect_error(pgbb:::.column_bounds(fm$X, fm$mt, fm$mf, list(x = 5)), "two finite")
  expect_error(pgbb:::.check_bounds_list(list(c(0, 1))), "'bounds'")
})

test_that("data-dependent bases and character categories are refused", {
  d <- data.frame(x = seq(0, 1, length.out = 10), g = rep(c("u", "v"), 5),
                  stringsAsFactors = FALSE)
  fm <- frame_and_matrix(~ poly(x, 2), d)
  expect_error(pgbb:::.column_bounds(fm$X, fm$mt, fm$mf, list(x = c(0, 1))), "from the data")
  fm2 <- frame_and_matrix(~ x + g, d)
  expect_error(pgbb:::.column_bounds(fm2$X, fm2$mt, fm2$mf, list(x = c(0, 1))), "factor")
})

test_that("a namespace prefix does not get a data-dependent basis past the design", {
  d <- data.frame(x = seq(0, 1, length.out = 10))
  for (f in list(~ base::cut(x, 3), ~ splines::ns(x, 2), ~ stats::poly(x, 2))) {
    fm <- frame_and_matrix(f, d)
    expect_error(pgbb:::.column_bounds(fm$X, fm$mt, fm$mf, list(x = c(0, 1))), "from the data")
  }
})

# A term must be a function of its own record with public constants: anything
# else either mixes other records into every row or takes its category set (and
# so the release's columns) from the data.
test_that("private terms must be record-wise with public categories", {
  cols <- c("y", "x", "g", "f")
  check <- function(rhs) pgbb:::.check_recordwise_terms(terms(reformulate(rhs, "y")), cols)
  refused <- c("factor(g)", "as.factor(g)", "ordered(g)", "base::cut(x, c(0, 1, 2))", "cut(x, 3)",
               "splines::ns(x, 2)", "scale(x)", "I(x - mean(x))", "pmin(x, max(x))", "I(g %in% x)",
               "factor(g, levels = unique(g))", "factor(g, levels = sort(c(1, 2)))", "rank(x)",
               "interaction(f, f)", "I(x + c(x))", "relevel(factor(g), ref = \"1\")")
  for (r in refused) expect_error(check(r), "'formula' has the term", info = r)
  expect_error(check("factor(g)"), "factor\\(\\) without 'levels'")
  expect_error(check("base::cut(x, 3)"), "calls cut\\(\\)")
  accepted <- c("x", "log(x)", "I(x^2)", "I(x > 2)", "pmin(x, 5)", "factor(g, levels = 1:3)",
                "factor(g, c(\"1\", \"2\"))", "ordered(x = g, levels = lv)", "relevel(f, ref = \"b\")",
                "I(g %in% c(1, 3))", "ifelse(x > 1, x, 0)", "as.numeric(f == \"a\")", "offset(x)")
  for (r in accepted) expect_true(check(r), info = r)
  # The response is a model variable too.
  expect_error(pgbb:::.check_recordwise_terms(terms(scale(y) ~ x), cols), "scale\\(y\\)")
})

test_that("an admitted function name must mean base R's function where the formula was written", {
  cols <- c("y", "x")
  # A user's sqrt() that centres at the data mean passes every name list, but
  # model.frame() would call it: it mixes every record into each row.
  sqrt <- function(v) base::sqrt(v) - mean(base::sqrt(v))
  f <- y ~ sqrt(x)
  expect_error(pgbb:::.check_recordwise_terms(terms(f), cols), "sqrt\\(\\), which is not R's own sqrt")
  ifelse <- function(test, yes, no) yes - mean(yes)
  expect_error(pgbb:::.check_recordwise_terms(terms(y ~ I(ifelse(x > 1, x, 0))), cols), "not R's own ifelse")
  expect_error(pgbb:::.check_recordwise_terms(terms(y ~ other::log(x)), cols), "other::log\\(\\)")
  expect_true(pgbb:::.check_recordwise_terms(terms(y ~ base::sqrt(x) + base::log(x)), cols))
  d <- data.frame(x = runif(50, 1, 4)); d$y <- d$x + rnorm(50)
  expect_error(pgbb(y ~ sqrt(x), d, loss = "huber", epsilon = 1, bounds = list(x = c(1, 4), .response = c(-3, 8))),
               "not R's own sqrt")
  rm(sqrt, ifelse)
  g <- function() { y ~ sqrt(x) }   # written where sqrt is base's
  expect_true(pgbb:::.check_recordwise_terms(terms(g()), cols))
})

test_that("bounds are read by name, so a repeated or unknown name is an error, not skipped", {
  set.seed(43)
  d <- data.frame(x = runif(80, 0, 10), z = runif(80), w = runif(80))
  d$y <- 1 + 0.5 * d$x + rnorm(80)
  ctl <- pgbb_control(iterations = 20, hidden = 4, draws = 50, runs = 2)
  b <- list(x = c(0, 10), z = c(0, 1), .response = c(-5, 15))
  fit <- function(f, bounds) pgbb(f, d, loss = "huber", epsilon = 2, bounds = bounds, control = ctl, progress = FALSE)
  # Only the first of two 'x' entries was read (a later override was ignored).
  expect_error(fit(y ~ x, c(b, list(x = c(0, 5)))), "'bounds'.*'x' given more than once")
  # 'z:x' is not the column 'x:z': it was skipped and the wider product bound used.
  expect_error(fit(y ~ x * z, c(b, list("z:x" = c(0, 1)))), "'z:x' name none .*x:z")
  expect_error(fit(y ~ x, c(b, list(xx = c(0, 1)))), "'xx' name none")
  # A bound for another column of the data (one list for several models), for a
  # column or for a transformed variable is read or allowed.
  expect_s3_class(suppressWarnings(fit(y ~ x, c(b, list(w = c(0, 1))))), "pgbb")
  expect_s3_class(suppressWarnings(fit(y ~ x * z, c(b, list("x:z" = c(0, 10))))), "pgbb")
  expect_s3_class(suppressWarnings(fit(y ~ log1p(x), b)), "pgbb")
  expect_error(dp_sgld(y ~ x, d, loss = "huber", epsilon = 2, bounds = c(b, list(.response = c(0, 1)))),
               "'.response' given more than once")
})

test_that("a new category value in one record cannot change a private fit's columns", {
  set.seed(41)
  n <- 120
  d <- data.frame(g = sample(1:2, n, TRUE), x = runif(n))
  d$y <- d$x + d$g + rnorm(n)
  nb <- d
  nb$g[1] <- 3                                   # a neighbour: one record changed
  b <- list(x = c(0, 1), .response = c(-5, 10))
  ctl <- pgbb_control(iterations = 20, hidden = integer(0), draws = 10, blocks = 3, runs = 2)
  fit_names <- function(data, formula) {
    pgbb(formula, data, loss = "huber", epsilon = 1, bounds = b, control = ctl)$coefnames
  }
  # Before the record-wise rule, factor(g) gave 3 columns on d and 4 on nb.
  expect_error(fit_names(d, y ~ x + factor(g)), "factor\\(\\) without 'levels'")
  expect_identical(suppressWarnings(fit_names(d, y ~ x + factor(g, levels = 1:3))),
                   suppressWarnings(fit_names(nb, y ~ x + factor(g, levels = 1:3))))
  # Every private formula front end goes through the same model frame.
  expect_error(dp_sgld(y ~ x + factor(g), d, tau = 0.5, epsilon = 1, bounds = b, iterations = 20),
               "'formula' has the term 'factor\\(g\\)'")
  expect_error(noisy_gibbs(y ~ base::cut(x, 3), d, family = "linear", epsilon = 1, bounds = b, iterations = 20),
               "'formula' has the term 'base::cut\\(x, 3\\)'")
  expect_error(dp_bootstrap(y ~ as.factor(g), d, epsilon = 1, bounds = b, B = 3),
               "'formula' has the term 'as.factor\\(g\\)'")
  # A non-private fit releases nothing and may still use factor().
  expect_length(suppressMessages(suppressWarnings(
    pgbb(y ~ x + factor(g), d, loss = "huber", private = FALSE, control = ctl)$coefnames)), 4L)
})

test_that("scaling clips to the declared range and maps into the unit box", {
  d <- data.frame(x = c(-5, 0, 5, 10, 50))
  fm <- frame_and_matrix(~ x, d)
  cb <- pgbb:::.column_bounds(fm$X, fm$mt, fm$mf, list(x = c(0, 10)))
  # Default with an intercept: centred at the midpoint, divided by the half-width.
  maps <- pgbb:::.unit_maps(cb, intercept = TRUE)
  sc <- pgbb:::.scale_to_unit(fm$X, cb, maps)
  expect_equal(sum(sc$clipped), 2L)
  expect_equal(sc$clipped[["x"]], 2L)   # counted per column, for the analyst's message
  expect_equal(unname(sc$Z[, "x"]), c(-1, -1, 0, 1, 1))
  expect_equal(unname(sc$Z[, 1]), rep(1, 5))
  expect_equal(pgbb:::.unit_ranges(cb, maps), list(lower = c(1, -1), upper = c(1, 1)))
  # The unit box of SM S3.3 (coding = "unit"): [lo, hi] onto [0, 1].
  maps_u <- pgbb:::.unit_maps(cb, intercept = TRUE, coding = "unit")
  sc_u <- pgbb:::.scale_to_unit(fm$X, cb, maps_u)
  expect_equal(unname(sc_u$Z[, "x"]), c(0, 0, 0.5, 1, 1))
  expect_equal(pgbb:::.unit_ranges(cb, maps_u), list(lower = c(1, 0), upper = c(1, 1)))
  # Without an intercept, columns are divided (no shift) into [-1, 1].
  fm0 <- frame_and_matrix(~ x - 1, d)
  cb0 <- pgbb:::.column_bounds(fm0$X, fm0$mt, fm0$mf, list(x = c(-20, 10)))
  maps0 <- pgbb:::.unit_maps(cb0, intercept = FALSE)
  sc0 <- pgbb:::.scale_to_unit(fm0$X, cb0, maps0)
  expect_equal(unname(sc0$Z[, 1]), c(-5, 0, 5, 10, 10) / 20)
})

test_that("two data sets differing in one extreme record get identical scaling", {
  set.seed(3)
  d1 <- data.frame(x = runif(50, 0, 10), z = runif(50, -1, 1))
  d2 <- d1
  d2$x[17] <- 1e6  # an adversarial outlier
  b <- list(x = c(0, 10), z = c(-1, 1))
  maps <- lapply(list(d1, d2), function(d) {
    fm <- frame_and_matrix(~ x * z, d)
    cb <- pgbb:::.column_bounds(fm$X, fm$mt, fm$mf, b)
    list(cb = cb, maps = pgbb:::.unit_maps(cb, TRUE))
  })
  expect_identical(maps[[1]], maps[[2]])
})

test_that("coefficients on the scaled design map back to original units", {
  set.seed(4)
  n <- 200
  d <- data.frame(x1 = runif(n, 2, 7), x2 = runif(n, -3, 3))
  d$y <- 1 + 0.5 * d$x1 - 2 * d$x2 + rnorm(n, sd = 0.1)
  fm <- frame_and_matrix(y ~ x1 + x2, d)
  cb <- pgbb:::.column_bounds(fm$X, fm$mt, fm$mf, list(x1 = c(0, 10), x2 = c(-5, 5)))
  for (coding in c("centred", "unit")) {
    maps <- pgbb:::.unit_maps(cb, TRUE, coding)
    Z <- pgbb:::.scale_to_unit(fm$X, cb, maps)$Z
    g <- coef(lm.fit(Z, d$y))
    A <- pgbb:::.unscale_matrix(maps, colnames(fm$X))
    expect_equal(drop(A %*% g), coef(lm.fit(fm$X, d$y)), tolerance = 1e-10)
  }
  # Centring removes the columns' correlation with the intercept: the scaled
  # design's X'X is far better conditioned (the noise error is H^{-1} times the noise).
  kap <- function(coding) {
    Z <- pgbb:::.scale_to_unit(fm$X, cb, pgbb:::.unit_maps(cb, TRUE, coding))$Z
    kappa(crossprod(Z), exact = TRUE)
  }
  expect_lt(kap("centred"), kap("unit") / 3)
})

# Exclusive indicator groups: a factor's treatment dummies
# take one of k public rows, so the group adds the largest coded row norm to
# ||z||^2, not the sum over its k - 1 columns.
factor_design <- function(intercept = TRUE, contrasts = NULL) {
  set.seed(61)
  d <- data.frame(x = runif(200, 0, 10), flag = runif(200) < 0.3,
                  f = factor(sample(c("a", "b", "c", "d"), 200, TRUE), levels = c("a", "b", "c", "d")),
                  g = factor(sample(c("u", "v", "w"), 200, TRUE), levels = c("u", "v", "w", "z")))
  if (!is.null(contrasts)) contrasts(d$f) <- contrasts
  fm <- frame_and_matrix(if (intercept) ~ x + flag + f + g + x:f else ~ 0 + f + x, d)
  cb <- pgbb:::.column_bounds(fm$X, fm$mt, fm$mf, list(x = c(0, 10)))
  c(fm, list(cb = cb, groups = pgbb:::.exclusive_groups(fm$X, fm$mt, fm$mf), d = d))
}

test_that("exclusive groups are the main-effect factors and logicals with 0/1 indicator rows", {
  fd <- factor_design()
  cols <- lapply(fd$groups, function(g) colnames(fd$X)[g$cols])
  expect_equal(cols, list("flagTRUE", c("fb", "fc", "fd"), c("gv", "gw", "gz")))
  expect_equal(nrow(fd$groups[[2]]$rows), 4L)   # k rows, the reference all zero
  expect_equal(nrow(fd$groups[[3]]$rows), 4L)   # declared levels, an empty one included
  # the interaction x:f is not a group; sum contrasts (entries -1) are not either
  expect_false(any(grepl(":", unlist(cols))))
  fs <- factor_design(contrasts = contr.sum(4))
  expect_equal(lapply(fs$groups, function(g) colnames(fs$X)[g$cols]), list("flagTRUE", c("gv", "gw", "gz")))
  # without an intercept the first factor has all k dummies, still exclusive
  f0 <- factor_design(intercept = FALSE)
  expect_equal(colnames(f0$X)[f0$groups[[1]]$cols], c("fa", "fb", "fc", "fd"))
})

test_that("a k-level factor is centred at 1/k and adds exactly 1 to the norm bound", {
  fd <- factor_design()
  maps <- pgbb:::.unit_maps(fd$cb, TRUE, "centred", fd$groups)
  j <- match(c("fb", "fc", "fd"), colnames(fd$X))
  expect_equal(maps$shift[j], rep(1 / 4, 3))
  expect_equal(maps$width[j], rep(sqrt(4^2 - 4 - 1) / 4, 3))
  # a binary indicator keeps the midpoint coding of a [0, 1] column
  expect_equal(maps$shift[match("flagTRUE", colnames(fd$X))], 0.5)
  expect_equal(maps$width[match("flagTRUE", colnames(fd$X))], 0.5)
  # Brute force: every combination of levels and corners of x, coded.
  grid <- expand.grid(x = c(0, 10), flag = c(FALSE, TRUE), f = levels(fd$d$f), g = levels(fd$d$g))
  grid$f <- factor(grid$f, levels(fd$d$f)); grid$g <- factor(grid$g, levels(fd$d$g))
  Xg <- model.matrix(fd$mt, model.frame(fd$mt, grid))
  Zg <- pgbb:::.scale_to_unit(Xg, fd$cb, maps)$Z
  xn <- pgbb:::.design_norm(fd$cb, maps, fd$groups)
  expect_equal(xn, max(sqrt(rowSums(Zg^2))), tolerance = 1e-12)   # exact, attained
  box <- sqrt(sum(pmax(pgbb:::.unit_ranges(fd$cb, maps)$lower^2, pgbb:::.unit_ranges(fd$cb, maps)$upper^2)))
  expect_lt(xn, box)
  # intercept 1, x 1, flag 1, f 1, g 1, and x:f's three columns 1 each (box bound): 8
  expect_equal(xn^2, 8, tolerance = 1e-12)
  # every record of the data lies within it, and the map back is exact
  Z <- pgbb:::.scale_to_unit(fd$X, fd$cb, maps)$Z
  expect_true(all(sqrt(rowSums(Z^2)) <= xn * (1 + 1e-12)))
  g <- rnorm(ncol(Z))
  A <- pgbb:::.unscale_matrix(maps, colnames(fd$X))
  expect_equal(drop(fd$X %*% (A %*% g)), drop(Z %*% g), tolerance = 1e-12)
  # unit coding: 0/1 dummies, still one row's worth (1) per group. The x:f
  # columns keep the box bound (3), though only one of them is non-zero at a
  # time (max 6 attained): valid, not exact, for interactions.
  mu <- pgbb:::.unit_maps(fd$cb, TRUE, "unit", fd$groups)
  Zu <- pgbb:::.scale_to_unit(Xg, fd$cb, mu)$Z
  expect_equal(pgbb:::.design_norm(fd$cb, mu, fd$groups)^2, 8, tolerance = 1e-12)
  expect_equal(max(rowSums(Zu^2)), 6, tolerance = 1e-12)
})

test_that("pgbb() trains with the structure's norm bound, and without groups as before", {
  fd <- factor_design()
  ctl <- pgbb_control(iterations = 40, hidden = 4, runs = 1, blocks = 5)
  fit <- pgbb(y ~ x + flag + f + g, data = transform(fd$d, y = rnorm(200)), loss = "quantile",
              tau = 0.5, epsilon = 1, bounds = list(x = c(0, 10), .response = c(-5, 5)), control = ctl)
  # B = sqrt(1 + 1 + 1 + 1 + 1) and the quantile bound max(tau, 1 - tau) B (?pgbb_fit)
  expect_equal(fit$fit$x_norm, sqrt(5), tolerance = 1e-12)
  expect_equal(fit$fit$ledger$clip, 0.5 * sqrt(5), tolerance = 1e-12)
  fit2 <- pgbb(y ~ x, data = transform(fd$d, y = rnorm(200)), loss = "quantile", tau = 0.5, epsilon = 1,
               bounds = list(x = c(0, 10), .response = c(-5, 5)), control = ctl)
  expect_null(fit2$fit$x_norm)
  expect_equal(fit2$fit$ledger$clip, 0.5 * sqrt(2))
})

test_that("a Huber or quantile fit is equivariant to the response's units (the trainer sees it coded)", {
  # The trainer's steps are in the units of the coefficients: before the coding,
  # the same fit in grams instead of kilograms had intervals 2.5 times too narrow
  # on the natality births. Coded by public bounds only, the two trainings see
  # the same numbers, so the draws agree up to the rounding of the coding.
  d <- data.frame(x = runif(400, 0, 2))
  d$y <- 3 + 0.4 * d$x + rt(400, 4) * 0.5
  dk <- transform(d, y = 1000 * y)
  for (loss in c("huber", "quantile")) {
    ctl <- function(h) if (loss == "quantile") pgbb_control(iterations = 200, hidden = 8, draws = 200, bandwidth = h)
                       else pgbb_control(iterations = 200, hidden = 8, draws = 200)
    set.seed(7)
    a <- quiet_noise(pgbb(y ~ x, d, loss = loss, epsilon = 2, bounds = list(x = c(0, 2), .response = c(-2, 8)),
                          control = ctl(0.1), progress = FALSE))
    set.seed(7)
    b <- quiet_noise(pgbb(y ~ x, dk, loss = loss, epsilon = 2, control = ctl(100), progress = FALSE,
                          bounds = list(x = c(0, 2), .response = c(-2000, 8000))))
    # float training: the coded responses differ in their last bits
    expect_equal(b$draws / 1000, a$draws, tolerance = 1e-4)
    expect_identical(b$design$y_unit, 1000 * a$design$y_unit)
    expect_identical(b$ledger$sigma, a$ledger$sigma)
  }
  co <- pgbb:::.response_coding(list(y_bounds = c(0.227, 8.165), intercept = TRUE), "quantile")
  expect_identical(c(co$y_unit, co$y_shift), c(1, 4.196))   # natality in kg: unchanged unit
  expect_identical(pgbb:::.response_coding(list(y_bounds = c(227, 8165), intercept = FALSE), "huber")[c("y_unit", "y_shift")],
                   list(y_unit = 1000, y_shift = 0))
})

# Linear bounds: a declared range of a linear combination of columns (public
# knowledge of how the variables are defined) may replace a column as a
# coordinate of the coding when it narrows the region the coded box covers.
census_like <- function(n = 400) {
  set.seed(71)
  age <- sample(40:49, n, TRUE)
  educ <- sample(0:20, n, TRUE)
  data.frame(educ = educ, exper = age - educ - 6, black = rbinom(n, 1, 0.1),
             y = 5 + 0.07 * educ + 0.005 * (age - educ - 6) + rnorm(n, sd = 0.5))
}
census_like_bounds <- list(educ = c(0, 20), exper = c(14, 43), black = c(0, 1), .response = c(0, 11))

test_that("a linear bound is parsed into coefficients on the model's columns", {
  fm <- frame_and_matrix(y ~ educ + exper + black, census_like())
  lin <- pgbb:::.linear_bounds(list(`educ + exper` = c(34, 43), `2 * educ - exper / 2 + 6` = c(0, 50)), fm)
  expect_length(lin, 2L)
  expect_equal(lin[[1]]$a, c(`(Intercept)` = 0, educ = 1, exper = 1, black = 0))
  expect_equal(lin[[1]]$range, c(34, 43))
  expect_equal(lin[[2]]$a, c(`(Intercept)` = 0, educ = 2, exper = -0.5, black = 0))
  expect_equal(lin[[2]]$range, c(-6, 44))   # the constant moves across
  # Errors name 'bounds' and say what is wrong.
  expect_error(pgbb:::.linear_bounds(list(`educ * exper` = c(0, 1)), fm), "'bounds'.*not linear")
  expect_error(pgbb:::.linear_bounds(list(`educ + age` = c(0, 1)), fm), "'age' is not a numeric column")
  expect_error(pgbb:::.linear_bounds(list(`(educ - educ) + 1` = c(0, 1)), fm), "involves none")
  d <- transform(census_like(), g = factor(sample(c("a", "b"), 400, TRUE)))
  fg <- frame_and_matrix(y ~ educ + g, d)
  # A combination of data columns this model does not use is not read (one
  # list may serve several formulas), as a data column's own bound.
  fg$data_names <- names(d)
  expect_length(pgbb:::.linear_bounds(list(`educ + exper` = c(34, 43)), fg), 0L)
  expect_error(pgbb:::.linear_bounds(list(`educ + gb` = c(0, 1)), fg), "'gb' is not a numeric column")
})

test_that("a linear bound replaces the column whose exchange shrinks the coded region most", {
  fm <- frame_and_matrix(y ~ educ + exper + black, census_like())
  b <- c(census_like_bounds, list(`educ + exper` = c(34, 43)))
  cb <- pgbb:::.column_bounds(fm$X, fm$mt, fm$mf, b)
  co <- pgbb:::.linear_coordinates(cb, pgbb:::.linear_bounds(b, fm))
  # Volumes (educ, exper) 20 * 29 = 580, (educ, educ + exper) 20 * 9 = 180,
  # (educ + exper, exper) 9 * 29 = 261: exper's row is replaced.
  expect_equal(rownames(co$rows), c("(Intercept)", "educ", "educ + exper", "black"))
  expect_equal(unname(co$rows[3, ]), c(0, 1, 1, 0))
  expect_equal(unname(co$bounds[, 3]), c(34, 43))
  # A bound the box already implies narrows nothing: unused, and said so.
  b2 <- c(census_like_bounds, list(`educ + exper` = c(0, 70)))
  expect_warning(co2 <- pgbb:::.linear_coordinates(cb, pgbb:::.linear_bounds(b2, fm)), "'educ \\+ exper'.*not used")
  expect_null(co2$rows)
  expect_identical(co2$bounds, cb)
})

test_that("the coding on a linear bound clips into the coded box and maps back exactly", {
  d <- census_like()
  d$exper[1:3] <- c(43, 14, 30)   # educ + exper beyond [34, 43] for some of these
  fm <- frame_and_matrix(y ~ educ + exper + black, d)
  b <- c(census_like_bounds, list(`educ + exper` = c(34, 43)))
  cb <- pgbb:::.column_bounds(fm$X, fm$mt, fm$mf, b)
  co <- pgbb:::.linear_coordinates(cb, pgbb:::.linear_bounds(b, fm))
  for (coding in c("centred", "unit")) {
    maps <- pgbb:::.unit_maps(co$bounds, TRUE, coding)
    maps[c("rows", "bounds")] <- co[c("rows", "bounds")]
    sc <- pgbb:::.scale_to_unit(fm$X, cb, maps)
    s <- d$educ[1:3] + d$exper[1:3]
    expect_equal(sc$clipped[["educ + exper"]], sum(s < 34 | s > 43))
    lo <- if (coding == "centred") -1 else 0
    expect_true(all(sc$Z[, -1] >= lo - 1e-12 & sc$Z[, -1] <= 1 + 1e-12))
    ur <- pgbb:::.unit_ranges(cb, maps)
    expect_equal(ur$lower[-1], rep(lo, 3))
    # Unscaling: on the records inside the region, Z g = X beta for any g.
    g <- c(0.3, -1.2, 0.7, 2)
    A <- pgbb:::.unscale_matrix(maps, colnames(fm$X))
    inside <- -(1:3)
    expect_equal(drop(sc$Z[inside, ] %*% g), drop(fm$X[inside, ] %*% (A %*% g)), tolerance = 1e-12)
  }
})

test_that("pgbb() with a linear bound codes on it and targets the same coefficients", {
  d <- census_like(2000)
  b <- c(census_like_bounds, list(`educ + exper` = c(34, 43)))
  ctl <- pgbb_control(iterations = 1500, hidden = integer(0), runs = 1, blocks = 5, draws = 200)
  fits <- lapply(list(census_like_bounds, b), function(bb)
    pgbb(y ~ educ + exper + black, data = d, loss = "quantile", tau = 0.5, bounds = bb, private = FALSE,
         control = ctl))
  expect_null(fits[[1]]$design$maps$rows)
  expect_equal(rownames(fits[[2]]$design$maps$rows)[3], "educ + exper")
  # Both estimate the median regression in the original units: rq's slopes
  # have standard errors of about 0.004 (educ) and 0.006 (exper) here, and the
  # two fits differ from rq by less than two of them.
  ref <- coef(quantreg::rq(y ~ educ + exper + black, tau = 0.5, data = d))
  for (f in fits) expect_lt(max(abs(coef(f)[c("educ", "exper")] - ref[c("educ", "exper")])), 0.012)
  # predict() names rows beyond the linear bound as it names rows beyond a
  # column's own bounds: the fit's data were clipped to both.
  nd <- data.frame(educ = c(20, 10, 0), exper = c(23, 30, 43), black = 0)   # sums 43, 40, 43
  expect_no_warning(predict(fits[[2]], nd))
  nd$exper[2] <- 35                                                        # 45 > 43
  expect_warning(predict(fits[[2]], nd), "educ \\+ exper: 1 row outside \\[34, 43\\]")
  expect_no_warning(predict(fits[[1]], nd))
  # The private fit's covariate bound is the coded box's, not the columns' box.
  pf <- pgbb(y ~ educ + exper + black, data = d, loss = "quantile", tau = 0.5, bounds = b, epsilon = 1,
             control = pgbb_control(iterations = 60, hidden = 4, runs = 1, blocks = 5, draws = 50))
  expect_equal(pf$fit$ledger$clip, 0.5 * 2, tolerance = 1e-12)   # max(tau, 1 - tau) sqrt(4)
})

test_that("the other front ends that code a design read linear bounds too", {
  d <- census_like(600)
  b <- c(census_like_bounds, list(`educ + exper` = c(34, 43)))
  # (short chains: only the map back is tested, so their mixing warnings are muted)
  ng <- suppressWarnings(noisy_gibbs(y ~ educ + exper, d, family = "linear", epsilon = 2, bounds = b[c("educ", "exper", "educ + exper", ".response")],
                    iterations = 200))
  A <- ng$details$formula$A
  expect_equal(unname(A[c("educ", "exper"), 3]), c(1, 1) / 4.5)   # beta = A g, g on (educ + exper - 38.5) / 4.5
  # Three records beyond the linear bound are clipped to it and counted under its name.
  d$exper[1:3] <- 43 - d$educ[1:3] + 5
  expect_message(suppressWarnings(dp_sgld(y ~ educ + exper, data = d, loss = "quantile", tau = 0.5, epsilon = 2,
                                          bounds = b[-3], iterations = 200, progress = FALSE)),
                 "educ \\+ exper: 3")
})
