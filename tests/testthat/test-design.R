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

test_that("scaling clips to the declared range and maps into the unit box", {
  d <- data.frame(x = c(-5, 0, 5, 10, 50))
  fm <- frame_and_matrix(~ x, d)
  cb <- pgbb:::.column_bounds(fm$X, fm$mt, fm$mf, list(x = c(0, 10)))
  # Default with an intercept: centred at the midpoint, divided by the half-width.
  maps <- pgbb:::.unit_maps(cb, intercept = TRUE)
  sc <- pgbb:::.scale_to_unit(fm$X, cb, maps)
  expect_equal(sc$clipped, 2L)
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
