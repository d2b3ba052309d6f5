# Argument hygiene of cr_gs/cr_ss, the memory cap,
# the accountant's shared validation and the pgbb confint built on the shared
# draw summaries.

x01 <- (1:200) / 201

test_that("misspelt estimator parameters in '...' are errors naming them", {
  expect_error(cr_gs(x01, "mean", mu = 1, bounds = c(0, 1), lamda = 1), "'lamda'")
  expect_error(cr_gs(x01, "mean", mu = 1, bounds = c(0, 1), tolerance = 1, stepc = 2),
               "unknown arguments.*'tolerance', 'stepc'")
  expect_error(pgbb:::.check_dots(list(3), "y", "cr_gs"), "must be named")
  expect_error(cr_ss(x01, "quantile", mu = 1, delta = 1e-6, bounds = c(0, 1), Beta = 0.1),
               "'Beta'.*beta, C, degenerate")
  # Documented names still pass (they reach the estimator).
  set.seed(1)
  expect_s3_class(quiet_zero_radius(cr_ss(x01, "quantile", mu = 1, delta = 1e-6, bounds = c(0, 1),
                                          beta = 0.01, B = 20)), "private_cr")
  # `a` (the SGD exponent, a prefix of `alpha`) is still routed to the estimator.
  y <- as.numeric(x01 > 0.5)
  set.seed(2)
  expect_s3_class(quiet_zero_radius(cr_gs(x01, "sgd_logistic", y = y, lambda = 1, radius = 5, mu = 1,
                                          bounds = c(0, 1), B = 20, a = 0.6)), "private_cr")
})

test_that("requests beyond 2^28 values are refused with a clear message; below it they pass", {
  expect_error(resample_indices(2^15, 2^14, 2^14 + 1), "more than this function allocates.*2 GiB")
  expect_error(rblock_weights(2^27, 3, 1), "'k \\* blocks'.*at most 2.68e\\+08 values")
  expect_error(pgbb:::.check_memory(2^28 + 1, "x"), "'x' asks for 2.68e\\+08 values")
  expect_true(pgbb:::.check_memory(2^28, "x"))
})

test_that("pgbb_epsilon and pgbb_sigma share their validation and still agree", {
  args <- list(delta = 1e-5, n = 1000, blocks = 10, clip = 1, rate = 0.1, iterations = 100)
  s <- do.call(pgbb_sigma, c(list(epsilon = 1), args))
  e <- do.call(pgbb_epsilon, c(list(sigma = as.numeric(s)), args))
  expect_lte(as.numeric(e), 1 + 1e-9)      # calibration certifies epsilon <= target
  expect_gt(as.numeric(e), 1 - 1e-3)       # within tol = 1e-6 relative in sigma
  for (f in list(pgbb_sigma, pgbb_epsilon)) {
    first <- if (identical(f, pgbb_sigma)) list(epsilon = 1) else list(sigma = 1)
    expect_error(do.call(f, c(first, modifyList(args, list(delta = 1)))), "'delta'")
    expect_error(do.call(f, c(first, modifyList(args, list(iterations = 0)))), "'iterations'")
    expect_error(do.call(f, c(first, args, list(mc = 1.5))), "'mc'")
    expect_error(do.call(f, c(first, args, list(orders = 1))), "'orders'")
    expect_error(do.call(f, c(first, args[setdiff(names(args), "n")])), "'n' and 'blocks' are required")
  }
})

test_that("the epsilon-floor error of pgbb_sigma prints the floor with significant digits", {
  # The Mironov conversion at order <= 3 cannot certify epsilon below log(1/delta)/2.
  floor_eps <- log(1 / 1e-5) / (3 - 1)
  err <- tryCatch(pgbb_sigma(epsilon = 0.5, delta = 1e-5, n = 1000, blocks = 10, clip = 1,
                             rate = 0.1, iterations = 10, conversion = "mironov", orders = 2:3),
                  error = conditionMessage)
  expect_match(err, "'epsilon' is below 5\\.75")
  expect_no_match(err, "0\\.000000|5\\.756463")
  expect_equal(as.numeric(sub(".*below ([0-9.e+-]+),.*", "\\1", err)), floor_eps, tolerance = 1e-3)
})

test_that("confint/coef of a pgbb fit equal the shared draw summaries, one or many levels", { quiet_noise({
  set.seed(5)
  d <- data.frame(x = runif(200, 0, 10)); d$y <- 1 + 0.3 * d$x + rnorm(200)
  ctl <- pgbb_control(iterations = 40, hidden = 8, draws = 60, blocks = 10)
  one <- pgbb(y ~ x, d, loss = "quantile", tau = 0.5, epsilon = 4,
              bounds = list(x = c(0, 10), .response = c(-10, 15)), control = ctl, progress = FALSE)
  many <- pgbb(y ~ x, d, loss = "quantile", tau = c(0.25, 0.75), epsilon = 4,
               bounds = list(x = c(0, 10), .response = c(-10, 15)), control = ctl, progress = FALSE)
  # Independent computation from the stored draws.
  q <- function(v) stats::quantile(v, c(0.05, 0.95), names = FALSE)
  ci1 <- confint(one, level = 0.9)
  expect_identical(dimnames(ci1), list(c("(Intercept)", "x"), c("5 %", "95 %")))
  expect_equal(unname(ci1["x", ]), q(one$draws[, "x", 1]))
  expect_equal(unname(confint(one, "x", level = 0.9)), t(q(one$draws[, "x", 1])))
  expect_equal(unname(coef(one)), unname(colMeans(one$draws[, , 1])))
  ci2 <- confint(many, parm = 2, level = 0.9)
  expect_equal(dim(ci2), c(1L, 2L, 2L))
  expect_equal(unname(ci2[1, , 2]), q(many$draws[, "x", 2]))
  expect_equal(dim(coef(many)), c(2L, 2L))
  expect_error(confint(one, "z"), "'parm'")
}) })
