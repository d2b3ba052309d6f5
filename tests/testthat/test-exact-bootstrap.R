# The exact Bayesian bootstraps of the smooth losses (src/core/exact_bootstrap.h)
# against independent solutions of the same weighted problems: closed forms,
# lm.wfit, glm.fit, quantreg, and R's optim on the objective.

fixed_u <- function(draws, S, gamma = 1) rblock_weights(draws, S, gamma)

test_that("blocked least squares equals weighted least squares at the same weights", {
  set.seed(61)
  n <- 120; S <- 6
  x <- cbind(1, rnorm(n), runif(n))
  y <- drop(x %*% c(1, -2, 0.5)) + rnorm(n)
  part <- block_partition(n, S)
  U <- fixed_u(30, S)
  bb <- blocked_bootstrap(x, y, loss = "squared", draws = 30, blocks = S, partition = part, u = U)
  W <- record_weights(U, part)
  ref <- t(apply(W, 1L, function(w) stats::lm.wfit(x, y, w)$coefficients))
  # Newton on a quadratic converges in one step: agreement to rounding.
  expect_equal(unname(bb$draws), unname(ref), tolerance = 1e-9)
  expect_equal(bb$failed, 0L)
})

test_that("blocked logistic regression equals glm.fit with the same weights", {
  set.seed(62)
  n <- 200; S <- 5
  x <- cbind(1, runif(n, -1, 1))
  y <- rbinom(n, 1, plogis(drop(x %*% c(-0.3, 1.2))))
  part <- block_partition(n, S)
  U <- fixed_u(10, S)
  bb <- blocked_bootstrap(x, y, loss = "logistic", draws = 10, blocks = S, partition = part, u = U)
  W <- record_weights(U, part)
  ref <- t(apply(W, 1L, function(w) suppressWarnings(
    stats::glm.fit(x, y, weights = w * n, family = stats::binomial(),
                   control = list(epsilon = 1e-14, maxit = 100))$coefficients)))
  expect_equal(unname(bb$draws), unname(ref), tolerance = 1e-7)
})

test_that("Huber with scale converges from the default start whatever the scale of the data", {
  # The scale starts at 1. On data whose residual scale is far from 1, or on
  # ordinary heavy-tailed data, the first Newton step can shrink the scale
  # below every residual, where the Hessian is zero (no inliers); the solver
  # then has to continue along the gradient instead of failing on the full data.
  huber_grad <- function(th, x, y, w) {
    p <- ncol(x)
    s <- th[p + 1]
    z <- (y - drop(x %*% th[seq_len(p)])) / s
    psi <- pmin(pmax(z, -1.345), 1.345)
    c(-colSums(w * psi * x), sum(w * ifelse(abs(z) <= 1.345, 0.71 - z^2, 0.71 - 1.345^2) / 2))
  }
  for (seed in 1:12) for (sc in c(0.01, 1, 100)) {
    set.seed(seed)
    n <- 200
    x <- cbind(1, runif(n))
    y <- sc * (drop(x %*% c(1, 2)) + rt(n, 3))
    part <- rep(1:4, each = n / 4)  # u = 1 / 4 each: every weight 1 / n
    fit <- expect_silent(blocked_bootstrap(x, y, loss = "huber", draws = 1, blocks = 4, partition = part,
                                                  u = matrix(0.25, 1, 4)))
    th <- fit$draws[1, ]
    expect_equal(fit$failed, 0L)
    # The objective is jointly convex in (beta, s) (s rho(r / s) is the
    # perspective of rho), so a zero gradient certifies the minimiser; the
    # solver stops at a Newton decrement of 1e-14, i.e. a gradient about 1e-7
    # relative to the terms it sums.
    g <- huber_grad(th, x, y, rep(1 / n, n))
    expect_lt(max(abs(g) / c(1.345 * c(1, 0.5), 1)), 1e-6)
  }
})

test_that("Huber with scale and the smoothed quantile loss solve their weighted problems", {
  set.seed(63)
  n <- 150; S <- 5
  x <- cbind(1, runif(n, -1, 1))
  y <- drop(x %*% c(1, 2)) + 0.5 * rt(n, 3)
  part <- block_partition(n, S)
  U <- fixed_u(4, S)
  W <- record_weights(U, part)
  hub <- blocked_bootstrap(x, y, loss = "huber", draws = 4, blocks = S, partition = part, u = U)
  qs <- blocked_bootstrap(x, y, loss = "quantile", tau = 0.3, bandwidth = 0.2, draws = 4, blocks = S,
                          partition = part, u = U)
  huber_obj <- function(th, w) {
    s <- th[3]
    if (s <= 0) return(Inf)
    z <- (y - drop(x %*% th[1:2])) / s
    rho <- ifelse(abs(z) <= 1.345, z^2 / 2, 1.345 * abs(z) - 1.345^2 / 2)
    sum(w * (s * rho + 0.71 * s / 2))
  }
  sq_obj <- function(th, w, tau = 0.3, h = 0.2) {
    r <- y - drop(x %*% th)
    a <- r / h
    sum(w * 0.5 * (h * (a * (1 - 2 * pnorm(-a)) + 2 * dnorm(a)) + (2 * tau - 1) * r))
  }
  for (b in 1:4) {
    # The Newton solution is a minimum: no nearby point (optim from it, and
    # coordinate probes) improves the objective beyond rounding.
    o <- stats::optim(hub$draws[b, ], huber_obj, w = W[b, ], method = "Nelder-Mead",
                      control = list(reltol = 1e-14, maxit = 5000))
    expect_gte(o$value, huber_obj(hub$draws[b, ], W[b, ]) - 1e-12)
    for (j in 1:3) for (e in c(-1e-4, 1e-4)) {
      th <- hub$draws[b, ]; th[j] <- th[j] + e
      expect_gt(huber_obj(th, W[b, ]), huber_obj(hub$draws[b, ], W[b, ]))
    }
    o2 <- stats::optim(c(0, 0), sq_obj, w = W[b, ], method = "BFGS", control = list(reltol = 1e-15))
    expect_equal(unname(qs$draws[b, ]), o2$par, tolerance = 1e-5)
  }
})

test_that("the check loss (bandwidth 0) goes through quantreg and matches rq()", {
  skip_if_not_installed("quantreg")
  set.seed(64)
  n <- 100; S <- 4
  x <- cbind(1, runif(n))
  y <- drop(x %*% c(1, 1)) + rnorm(n)
  part <- block_partition(n, S)
  U <- fixed_u(3, S)
  W <- record_weights(U, part)
  bb <- blocked_bootstrap(x, y, loss = "quantile", tau = 0.7, bandwidth = 0, draws = 3, blocks = S,
                          partition = part, u = U)
  for (b in 1:3) {
    ref <- stats::coef(quantreg::rq(y ~ x - 1, tau = 0.7, weights = W[b, ]))
    expect_equal(unname(bb$draws[b, ]), unname(ref), tolerance = 1e-8)
  }
})

test_that("the ordinary Bayesian bootstrap of least squares has the right spread", {
  # For the weighted mean of one column the Bayesian bootstrap variance is
  # s2 / (n + 1); least squares on an intercept is that mean.
  set.seed(65)
  n <- 200
  y <- rexp(n)
  bb <- bayesian_bootstrap(matrix(1, n, 1), y, loss = "squared", draws = 4000)
  s2 <- mean((y - mean(y))^2)
  # 4000 draws: the variance estimate has relative sd sqrt(2 / 4000) = 2.2%;
  # 10% is 4.5 standard errors.
  expect_equal(var(bb$draws[, 1]), s2 / (n + 1), tolerance = 0.1)
  expect_equal(mean(bb$draws), mean(y), tolerance = 0.01)
})

test_that("blocked means with given weights are the weighted block means", {
  set.seed(66)
  n <- 50; S <- 5
  x <- cbind(a = rnorm(n), b = rexp(n))
  part <- block_partition(n, S)
  U <- fixed_u(7, S)
  bb <- blocked_bootstrap(x, loss = "mean", draws = 7, blocks = S, partition = part, u = U)
  expect_equal(unname(bb$draws), unname(U %*% apply(x, 2, function(v) tapply(v, part, mean))))
  be <- blocked_bootstrap(x[, 2], loss = "exponential", draws = 7, blocks = S, partition = part, u = U)
  expect_equal(unname(be$draws[, 1]), drop(record_weights(U, part) %*% x[, 2]))
})

test_that("several levels give a draws x p x levels array with shared weights", {
  set.seed(67)
  n <- 120; S <- 4
  x <- cbind(1, runif(n))
  y <- rnorm(n)
  bb <- blocked_bootstrap(x, y, loss = "quantile", tau = c(0.25, 0.75), draws = 20, blocks = S)
  expect_equal(dim(bb$draws), c(20L, 2L, 2L))
  # intercepts are ordered across levels draw by draw (same weights)
  expect_true(all(bb$draws[, 1, 2] > bb$draws[, 1, 1]))
  expect_equal(dim(coef(bb)), c(2L, 2L))
  expect_equal(dim(confint(bb)), c(2L, 2L, 2L))
  expect_output(print(bb), "0.25")
  expect_identical(colnames(coef(bb)), c("0.25", "0.75"))
})

test_that("exact bootstraps check their arguments", {
  x <- cbind(1, runif(30))
  y <- rnorm(30)
  expect_error(blocked_bootstrap(x, y, loss = "probit", blocks = 3), "'loss'")
  expect_error(blocked_bootstrap(x, NULL, loss = "huber", blocks = 3, draws = 5), "'y'")
  expect_error(blocked_bootstrap(x, y, loss = "huber", blocks = 3, draws = 5, u = matrix(1, 5, 2)), "'u'")
  expect_error(blocked_bootstrap(x, y, loss = "quantile", tau = 1.2, blocks = 3, draws = 5), "'tau'")
  expect_error(blocked_bootstrap(x, y, loss = "huber", blocks = 3, draws = 5, start = c(0, 0, -1)), "'start'")
})
