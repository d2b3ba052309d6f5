# R/bootstrap.R: the non-private ordinary and blocked Bayesian bootstrap front ends.

test_that("bayesian_bootstrap() and blocked_bootstrap() reject arguments their '...' would drop", {
  set.seed(109)
  z <- cbind(1, runif(100))
  y <- drop(z %*% c(1, 2)) + rnorm(100)
  # bandwith = 0 (the check loss) was silently replaced by the default bandwidth 0.1.
  expect_error(bayesian_bootstrap(z, y, loss = "quantile", draws = 5, bandwith = 0),
               "bayesian_bootstrap\\(\\): 'bandwith' \\(did you mean 'bandwidth'\\?\\)")
  expect_error(blocked_bootstrap(z, y, loss = "huber", draws = 5, blocks = 5, huber_kapa = 1),
               "blocked_bootstrap\\(\\): 'huber_kapa' \\(did you mean 'huber_kappa'\\?\\)")
  expect_error(bayesian_bootstrap(runif(50), NULL, "mean", 10, NULL, 5), "unnamed argument")
})

test_that("bayesian_bootstrap() and blocked_bootstrap() label each tau by its own fit", {
  set.seed(112)
  z <- cbind(1, runif(150))
  y <- drop(z %*% c(1, 2)) + rnorm(150)
  for (f in list(function(tau) { set.seed(3); bayesian_bootstrap(z, y, loss = "quantile", draws = 20, tau = tau) },
                 function(tau) { set.seed(3); blocked_bootstrap(z, y, loss = "quantile", draws = 20, blocks = 5,
                                                                tau = tau, partition = rep(1:5, 30)) })) {
    down <- f(c(0.9, 0.1))
    expect_equal(down$draws[, , "0.9"], f(0.9)$draws)
    expect_equal(down$draws[, , "0.1"], f(0.1)$draws)
    expect_gt(mean(down$draws[, 1, "0.9"]), mean(down$draws[, 1, "0.1"]) + 1)
  }
})

test_that("the non-private blocked bootstrap follows set.seed(), partition included", {
  z <- rexp(60)
  # Its partition came from OS entropy, so set.seed() did not reproduce it.
  set.seed(7); a <- blocked_bootstrap(z, draws = 20, blocks = 5)
  set.seed(7); b <- blocked_bootstrap(z, draws = 20, blocks = 5)
  expect_identical(a$draws, b$draws)
  set.seed(8); c8 <- blocked_bootstrap(z, draws = 20, blocks = 5)
  expect_false(identical(a$draws, c8$draws))
})

test_that("column names label the coefficients: duplicated, empty or 'scale' (Huber) names are errors", {
  set.seed(31)
  x <- cbind(b = runif(100), b = runif(100))
  y <- drop(x %*% c(2, -2)) + rnorm(100)
  # A duplicated name gave the second column the first one's interval.
  expect_error(bayesian_bootstrap(x, y, loss = "squared", draws = 10), "unique and non-empty")
  expect_error(bayesian_bootstrap(x, draws = 10), "unique and non-empty")
  # cbind(1, x) names the column of ones "": confint() failed on it.
  expect_error(blocked_bootstrap(cbind(1, x[, 1, drop = FALSE]), y, loss = "squared", blocks = 4, draws = 10),
               "unique and non-empty")
  expect_error(bayesian_bootstrap(cbind(a = 1, scale = x[, 1]), y, loss = "huber", draws = 10), "'scale'")
  expect_error(noisy_gibbs(x, y, family = "linear", epsilon = 1, delta = 1e-3, bounds = c(x = 1, y = 5)),
               "unique and non-empty")
  expect_error(dp_bootstrap(x, y, epsilon = 1, delta = 1e-3, bounds = c(x = 1)), "unique and non-empty")
})

test_that("bootstrap methods refuse unknown arguments, give nobs(), and print a one-coefficient quantile fit", {
  set.seed(32)
  y <- rnorm(80)
  bb <- bayesian_bootstrap(matrix(1, 80, 1, dimnames = list(NULL, "(Intercept)")), y, loss = "quantile",
                           tau = c(0.25, 0.5), draws = 20)
  expect_output(print(bb), "0.25")
  expect_identical(colnames(coef(bb)), c("0.25", "0.5"))
  expect_identical(nobs(bb), 80L)
  expect_error(coef(bb, tau = 0.5), "unknown argument 'tau'")
  expect_error(vcov(bb, tau = 0.5), "unknown argument 'tau'")
})
