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
  expect_error(pgbb_reference(y ~ x, d, loss = "quantile", large_n = 1000, bootstrap = -1), "'bootstrap'")
  expect_error(pgbb_reference(y ~ x, d, loss = "quantile", bootstrap = 0), "'bootstrap'")  # rq path

  # bootstrap = 0: the same conquer estimate with sandwich intervals, checked
  # against the known asymptotic width 2 z sqrt(tau (1 - tau) / phi(q_tau)^2
  # [E xx']^-1_jj / n) of this Gaussian-error design. The sandwich's own
  # estimation error at n = 4000 is a few per cent (measured 1-6%): within 12%.
  # (The B = 200 bootstrap is not the yardstick: its widths vary by up to 30%
  # across seeds here.)
  sand <- pgbb_reference(y ~ x + z, d, loss = "quantile", tau = taus, large_n = 1000, bootstrap = 0)
  expect_match(sand$method, "sandwich")
  expect_equal(sand$coefficients, big$coefficients, tolerance = 1e-10)
  w_sand <- sand$intervals[, 2, ] - sand$intervals[, 1, ]
  Qi <- diag(solve(crossprod(cbind(1, d$x, d$z)) / n))
  w_true <- sapply(taus, function(t) 2 * qnorm(0.975) * sqrt(t * (1 - t) / dnorm(qnorm(t))^2 * Qi / n))
  expect_lt(max(abs(w_sand / w_true - 1)), 0.12)
  expect_lt(max(abs(w_sand / w_big - 1)), 0.4)
  expect_equal((sand$intervals[, 1, ] + sand$intervals[, 2, ]) / 2, sand$coefficients, ignore_attr = TRUE)
})

test_that("the sandwich standard errors of the smoothed estimator match a direct computation", {
  # An independent form: the per-record score psi_i x_i and Hessian weights,
  # summed in a loop, against the vectorised sandwich.
  set.seed(3)
  n <- 300
  X <- cbind(1, runif(n), rbinom(n, 1, 0.5))
  y <- drop(X %*% c(1, 2, -1)) + rnorm(n)
  beta <- c(0.9, 2.1, -0.95)
  h <- 0.3
  tau <- 0.3
  H <- matrix(0, 3, 3)
  S <- matrix(0, 3, 3)
  for (i in seq_len(n)) {
    r <- y[i] - sum(X[i, ] * beta)
    H <- H + dnorm(r / h) / h * tcrossprod(X[i, ])
    S <- S + (pnorm(-r / h) - tau)^2 * tcrossprod(X[i, ])
  }
  V <- solve(H) %*% S %*% solve(H)
  expect_equal(pgbb:::.conquer_sandwich_se(X, y, beta, tau, h), sqrt(diag(V)), tolerance = 1e-12)
})

test_that("pgbb_reference() rejects unknown '...' arguments, weights and offset() terms", {
  skip_if_not_installed("quantreg")
  set.seed(106)
  d <- data.frame(x = runif(100), z = runif(100))
  d$y <- 1 + d$x + rnorm(100)
  expect_error(pgbb_reference(y ~ x, d, iteration = 5),
               "unknown argument in '...' of pgbb_reference\\(\\): 'iteration'")
  expect_error(pgbb_reference(y ~ x, d, huber_k = 1, loss = "huber"),
               "'huber_k' \\(did you mean 'huber_c'\\?\\)")
  expect_error(pgbb_reference(y ~ x, d, weights = z), "pgbb_reference\\(\\) does not support case weights")
  expect_error(pgbb_reference(y ~ x + offset(z), d), "offset\\(\\) term, which pgbb_reference\\(\\) does not support")
  # subset still reaches model.frame().
  expect_equal(pgbb_reference(y ~ x, d, subset = x > 0.5)$n, sum(d$x > 0.5))
})

test_that("pgbb_reference() labels each tau by its own fit whatever the order of 'tau'", {
  skip_if_not_installed("quantreg")
  set.seed(111)
  d <- data.frame(x = runif(200))
  d$y <- 1 + 2 * d$x + rnorm(200)
  down <- pgbb_reference(y ~ x, d, tau = c(0.9, 0.1))
  expect_equal(colnames(down$coefficients), c("0.9", "0.1"))
  expect_equal(down$coefficients[, "0.9"], pgbb_reference(y ~ x, d, tau = 0.9)$coefficients[, 1])
  expect_equal(down$coefficients[, "0.1"], pgbb_reference(y ~ x, d, tau = 0.1)$coefficients[, 1])
  expect_equal(down$intervals[, , "0.9"], pgbb_reference(y ~ x, d, tau = 0.9)$intervals[, , 1])
})

test_that("as.data.frame() of a reference has the private fits' schema", {
  skip_if_not_installed("quantreg")
  set.seed(41)
  d <- data.frame(x = runif(300)); d$y <- 1 + d$x + rnorm(300)
  r <- pgbb_reference(y ~ x, d, loss = "quantile", tau = c(0.25, 0.75))
  df <- as.data.frame(r)
  expect_identical(names(df), c("method", "term", "tau", "estimate", "sd", "lower", "upper"))
  expect_equal(df$tau, rep(c(0.25, 0.75), each = 2))
  expect_equal(df$estimate, as.vector(r$coefficients))
  expect_equal(df$lower[df$term == "x" & df$tau == 0.75], unname(r$intervals["x", 1, 2]))
  h <- as.data.frame(pgbb_reference(y ~ x, d, loss = "huber"))
  expect_true(all(is.na(h$tau)))
  expect_true(all(h$lower <= h$estimate & h$estimate <= h$upper))
})

test_that("confint() of a reference refuses a level it was not fitted at instead of ignoring it", {
  set.seed(21)
  d <- data.frame(x = runif(200))
  d$y <- 1 + d$x + rnorm(200)
  ref <- pgbb_reference(y ~ x, d, loss = "huber", level = 0.9)
  expect_identical(confint(ref), confint(ref, level = 0.9))
  # These used to return the 90% intervals silently.
  expect_error(confint(ref, level = 0.5), "'level' must be NULL or 0.9")
  expect_error(confint(ref, level = 1.5), "'level'")
  expect_error(confint(ref, levl = 0.5), "unknown argument 'levl'")
  expect_error(confint(ref, "zz"), "'parm'")
  expect_error(confint(ref, 7), "'parm'")
  expect_identical(rownames(confint(ref, "x")), "x")
})

test_that("a one-level reference answers coef() and confint() in the shapes of the private fits", {
  set.seed(51)
  d <- data.frame(x = runif(200)); d$y <- 1 + d$x + rnorm(200)
  r <- pgbb_reference(y ~ x, d, tau = 0.5)
  expect_identical(names(coef(r)), c("(Intercept)", "x"))
  expect_null(dim(coef(r)))
  expect_identical(dim(confint(r)), c(2L, 2L))
  expect_identical(confint(r, "x"), confint(r)["x", , drop = FALSE])
  expect_identical(nobs(r), 200L)
  expect_error(coef(r, tau = 0.5), "unknown argument 'tau'")
  # several levels keep their matrix and array
  r2 <- pgbb_reference(y ~ x, d, tau = c(0.25, 0.5))
  expect_identical(dim(coef(r2)), c(2L, 2L))
  expect_identical(length(dim(confint(r2))), 3L)
})

test_that("the reference drops levels no record has, as lm() and rq() do", {
  set.seed(44)
  n <- 300
  d <- data.frame(x = runif(n), g = factor(sample(c("a", "b"), n, TRUE), levels = c("a", "b", "c")))
  d$y <- 1 + d$x + (d$g == "b") + rnorm(n)
  d$b <- as.numeric(d$y > 2)
  q <- pgbb_reference(y ~ x + g, d, loss = "quantile", tau = 0.5)
  expect_equal(coef(q), coef(quantreg::rq(y ~ x + g, data = droplevels(d), tau = 0.5)), tolerance = 1e-8)
  h <- pgbb_reference(y ~ x + g, d, loss = "huber")
  expect_named(coef(h), c("(Intercept)", "x", "gb", "scale"))
  expect_true(all(is.finite(confint(h))))
  l <- pgbb_reference(b ~ x + g, d, loss = "logistic")
  expect_equal(coef(l), coef(glm(b ~ x + g, binomial, droplevels(d))), tolerance = 1e-6)
})

test_that("above large_n a model conquer cannot fit (no intercept, no covariate) goes to quantreg", {
  set.seed(45)
  n <- 400
  d <- data.frame(x = runif(n, 1, 2)); d$y <- 2 * d$x + rnorm(n)
  f <- pgbb_reference(y ~ 0 + x, d, tau = 0.5, large_n = 100)
  expect_equal(unname(coef(f)), unname(coef(quantreg::rq(y ~ 0 + x, data = d, tau = 0.5))), tolerance = 1e-8)
  m <- pgbb_reference(y ~ 1, d, tau = 0.5, large_n = 100, bootstrap = 20)
  expect_equal(unname(coef(m)), unname(quantile(d$y, 0.5, type = 1)), tolerance = 1e-8)
})
