# The non-private reference fits (R/reference.R).

test_that("the large-n quantile reference (conquer, multiplier bootstrap) runs and agrees with rq", {
  skip_if_not_installed("conquer")
  skip_if_not_installed("quantreg")
  set.seed(11)
  n <- 4000
  d <- data.frame(x = runif(n), z = rbinom(n, 1, 0.4))
  d$y <- 1 + 2 * d$x - 0.5 * d$z + rnorm(n)
  taus <- c(0.25, 0.5)
  big <- pgbb_reference(y ~ x + z, d, loss = "quantile", tau = taus, large_n = 1000, bootstrap = 200)
  small <- pgbb_reference(y ~ x + z, d, loss = "quantile", tau = taus)
  expect_match(big$method, "conquer")
  expect_match(small$method, "rq")
  expect_identical(dim(big$intervals), c(3L, 2L, 2L))
  # The smoothed and the check-loss estimators differ by O(h^2) plus noise of a
  # fraction of their sd (here about 0.03-0.06): within 0.1.
  expect_lt(max(abs(big$coefficients - small$coefficients)), 0.1)
  # Percentile intervals bracket the estimate and have about the rq width (40%).
  expect_true(all(big$intervals[, 1, ] < big$coefficients & big$coefficients < big$intervals[, 2, ]))
  w_big <- big$intervals[, 2, ] - big$intervals[, 1, ]
  w_small <- small$intervals[, 2, ] - small$intervals[, 1, ]
  expect_lt(max(abs(w_big / w_small - 1)), 0.4)
  expect_error(pgbb_reference(y ~ x, d, loss = "quantile", large_n = 1000, bootstrap = 0), "'bootstrap'")
})
