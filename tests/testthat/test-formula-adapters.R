# R/formula-adapters.R: the formula methods of the matrix baselines.

test_that("noisy_gibbs() and dp_bootstrap() formula interfaces reject offset() terms", {
  set.seed(108)
  d <- data.frame(x = runif(100), z = runif(100))
  d$y <- 1 + d$x + rnorm(100)
  b <- list(x = c(0, 1), z = c(0, 1), .response = c(-5, 5))
  expect_error(noisy_gibbs(y ~ x + offset(z), d, family = "linear", epsilon = 1, bounds = b, iterations = 50),
               "offset\\(\\) term, which noisy_gibbs\\(\\) does not support")
  expect_error(dp_bootstrap(y ~ x + offset(z), d, epsilon = 1, bounds = b, B = 3),
               "offset\\(\\) term, which dp_bootstrap\\(\\) does not support")
})

test_that("a subset given to a private formula baseline is named, not evaluated outside the data", {
  set.seed(109)
  d <- data.frame(x = runif(100))
  d$y <- 1 + d$x + rnorm(100)
  b <- list(x = c(0, 1), .response = c(-5, 5))
  # This failed with "object 'x' not found".
  expect_error(dp_bootstrap(y ~ x, d, epsilon = 1, bounds = b, B = 3, subset = x > 0.5), "unknown argument 'subset'")
  expect_error(noisy_gibbs(y ~ x, d, family = "linear", epsilon = 1, bounds = b, iterations = 20, subset = x > 0.5),
               "unknown argument 'subset'")
})
