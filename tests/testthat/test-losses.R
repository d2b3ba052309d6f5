# The losses of src/core/losses.h: gradients against finite differences of the
# values, Hessians against finite differences of the gradients, the trainer's
# linear-score form against the gradient, and the public gradient bounds C
# against the gradients themselves at random and extreme points of the boxes.

spec <- function(loss, p, ...) pgbb:::.loss_spec(loss, p, ...)
loss_eval <- function(s, theta, x, y = numeric(0), tau = 0.5)
  pgbb:::cpp_loss_eval(s, theta, x, y, tau)

# Central differences of the summed value: error O(h^2 f''') + O(eps f / h),
# about 1e-8 relative at h = 1e-5 for these smooth (C^2 at least) losses.
fd_gradient <- function(s, theta, x, y, tau, h = 1e-5) {
  vapply(seq_along(theta), function(j) {
    e <- replace(numeric(length(theta)), j, h)
    (sum(loss_eval(s, theta + e, x, y, tau)$value) - sum(loss_eval(s, theta - e, x, y, tau)$value)) / (2 * h)
  }, numeric(1))
}
fd_hessian <- function(s, theta, x, y, tau, h = 1e-5) {
  sapply(seq_along(theta), function(j) {
    e <- replace(numeric(length(theta)), j, h)
    (colSums(loss_eval(s, theta + e, x, y, tau)$gradient) -
       colSums(loss_eval(s, theta - e, x, y, tau)$gradient)) / (2 * h)
  })
}

cases <- function() {
  set.seed(31)
  n <- 40; p <- 3
  x <- cbind(1, matrix(runif(n * (p - 1), -1, 1), n))
  list(
    huber = list(s = spec("huber", p), theta = c(0.3, -0.5, 0.8, 0.7), x = x,
                 y = drop(x %*% c(0.3, -0.5, 0.8)) + rt(n, 3)),
    quantile = list(s = spec("quantile", p, bandwidth = 0.3), theta = c(0.2, 1, -1), x = x,
                    y = drop(x %*% c(0, 1, -1)) + rnorm(n, sd = 0.5), tau = 0.3),
    logistic = list(s = spec("logistic", p), theta = c(0.2, 1, -1), x = x, y = rbinom(n, 1, 0.4)),
    squared = list(s = spec("squared", p), theta = c(0.2, 1, -1), x = x, y = rnorm(n)),
    mean = list(s = spec("mean", 2, scale = 0.7), theta = c(0.4, -0.2), x = matrix(rnorm(2 * n), n)),
    exponential = list(s = spec("exponential", 1), theta = 1.7, x = matrix(rexp(n, 0.5), n))
  )
}

test_that("every loss gradient matches finite differences of its value", {
  for (nm in names(cases())) {
    cs <- cases()[[nm]]
    y <- if (is.null(cs$y)) numeric(0) else cs$y
    tau <- if (is.null(cs$tau)) 0.5 else cs$tau
    g <- colSums(loss_eval(cs$s, cs$theta, cs$x, y, tau)$gradient)
    # Tolerance: 1e-6 relative to the gradient's size, far above the O(1e-8)
    # finite-difference error and far below any formula error.
    expect_equal(g, fd_gradient(cs$s, cs$theta, cs$x, y, tau), tolerance = 1e-6, info = nm)
  }
})

test_that("Huber's gradient is right on both sides of the kink and at extreme residuals", {
  s <- spec("huber", 1)
  x <- matrix(c(1, 1, 1, 1), 4)
  theta <- c(0, 2)
  y <- c(1.345 * 2 - 0.01, 1.345 * 2 + 0.01, 100, -1e6)  # z = y / s just inside, outside, far
  g <- loss_eval(s, theta, x, y)$gradient
  z <- y / 2
  psi <- pmax(-1.345, pmin(1.345, z))
  expect_equal(g[, 1], -psi)
  expect_equal(g[, 2], ifelse(abs(z) <= 1.345, (0.71 - z^2) / 2, (0.71 - 1.345^2) / 2))
})

test_that("Hessians of the smooth losses match finite differences of the gradients", {
  for (nm in c("quantile", "logistic", "squared", "mean", "exponential", "huber")) {
    cs <- cases()[[nm]]
    y <- if (is.null(cs$y)) numeric(0) else cs$y
    tau <- if (is.null(cs$tau)) 0.5 else cs$tau
    H <- loss_eval(cs$s, cs$theta, cs$x, y, tau)$hessian
    # Huber's Hessian jumps where a residual crosses +-c s; none of these 40
    # residuals lies within the 1e-5 step of a kink (checked below), so the
    # difference quotient is exact up to O(1e-8) there too.
    if (nm == "huber") {
      z <- (cs$y - drop(cs$x %*% cs$theta[1:3])) / cs$theta[4]
      expect_gt(min(abs(abs(z) - 1.345)), 1e-3)
    }
    expect_equal(H, matrix(fd_hessian(cs$s, cs$theta, cs$x, y, tau), length(cs$theta)),
                 tolerance = 1e-6, info = nm)
  }
})

test_that("the trainer's linear-score form equals the gradient", {
  for (nm in names(cases())) {
    cs <- cases()[[nm]]
    y <- if (is.null(cs$y)) numeric(0) else cs$y
    tau <- if (is.null(cs$tau)) 0.5 else cs$tau
    r <- loss_eval(cs$s, cs$theta, cs$x, y, tau)
    expect_equal(r$score_gradient, r$gradient, tolerance = 1e-14, info = nm)
  }
})

test_that("the smoothed quantile loss is the check loss convolved with a Gaussian kernel", {
  # rho_{tau,h}(r) = E rho_tau(r + h Z), checked by quadrature.
  s <- spec("quantile", 1, bandwidth = 0.25)
  r <- c(-2, -0.3, 0, 0.1, 1.5)
  for (tau in c(0.1, 0.5, 0.8)) {
    v <- loss_eval(s, 0, matrix(1, length(r)), r, tau)$value
    q <- vapply(r, function(ri) stats::integrate(function(z)
      (ri + 0.25 * z) * (tau - (ri + 0.25 * z < 0)) * dnorm(z), -Inf, Inf, rel.tol = 1e-10)$value, 1)
    expect_equal(v, q, tolerance = 1e-8)
    # derivative Phi(r / h) - (1 - tau) (SM S3.3), here with x = 1 so g = -psi.
    # Phi is tabulated with cubic Hermite interpolation (losses.h,
    # NormalCdfTable), whose error bound is 8.5e-11: checked absolutely at that.
    g <- loss_eval(s, 0, matrix(1, length(r)), r, tau)$gradient[, 1]
    expect_lt(max(abs(-g - (pnorm(r / 0.25) - (1 - tau)))), 8.6e-11)
  }
})

# Random points of the declared boxes plus their corners, and responses from
# ordinary to absurd: the bound C must hold at every one.
bound_holds <- function(loss, p, xb, box, taus = 0.5, yb = NULL, n = 4000, ...) {
  s <- spec(loss, p, ...)
  bx <- pgbb:::.parse_box(box, pgbb:::.loss_dim(loss, p), paste0("t", seq_len(pgbb:::.loss_dim(loss, p))),
                          pgbb:::.loss_log_coords(loss, pgbb:::.loss_dim(loss, p)), loss)
  xr <- pgbb:::.parse_ranges(xb, p, "x_bounds")
  yr <- if (is.null(yb)) NULL else pgbb:::.parse_ranges(yb, 1, "y_bounds")
  C <- pgbb:::cpp_loss_bound(s, list(x_lower = xr$lower, x_upper = xr$upper,
                                     y_lower = yr$lower, y_upper = yr$upper), bx, taus)
  corners <- as.matrix(expand.grid(lapply(seq_len(p), function(j) c(xr$lower[j], xr$upper[j]))))
  x <- rbind(corners, sapply(seq_len(p), function(j) runif(n, xr$lower[j], xr$upper[j])))
  y <- if (!is.null(yr)) c(rep(c(yr$lower, yr$upper), length.out = nrow(corners)), runif(n, yr$lower, yr$upper)) else
    c(rep(c(-1e6, 1e6), length.out = nrow(corners)), rnorm(n, sd = 50))
  if (loss == "logistic") y <- rbinom(length(y), 1, 0.5)
  worst <- 0
  for (k in 1:60) {
    theta <- runif(length(bx$lower), bx$lower, bx$upper)
    if (k <= 2) theta <- if (k == 1) bx$lower else bx$upper
    for (tau in taus) {
      # the score the trainer clips (log scale for the exponential mean, losses.h kLogScore)
      g <- loss_eval(s, theta, x, if (loss %in% c("mean", "exponential")) numeric(0) else y, tau)$private_score
      worst <- max(worst, sqrt(rowSums(g^2)))
    }
  }
  list(C = C, worst = worst)
}

# The bounds can be attained (at a corner of the boxes), where the norm
# computed from the gradient may differ from C in the last bit: hence the
# relative slack of 1e-12, the margin the trainer's clip keeps below C.
test_that("the public gradient bound C bounds every per-record gradient over the boxes", {
  set.seed(32)
  p <- 3
  box3 <- rbind(c(-5, 5), c(-2, 4), c(-1, 1))
  r <- bound_holds("huber", p, c(-1, 1), rbind(box3, c(0.01, 10)))
  expect_lte(r$worst, r$C * (1 + 1e-12))
  # C_H of SM S3.2 on the unit box: sqrt(c^2 p B_x^2 + ((c^2 + kappa) / 2)^2)
  expect_equal(r$C, sqrt(1.345^2 * 3 + ((1.345^2 + 0.71) / 2)^2))
  taus <- c(0.1, 0.3, 0.5, 0.7, 0.9)
  r <- bound_holds("quantile", p, rbind(c(1, 1), c(-2, 3), c(0, 1)), box3, taus = taus)
  expect_lte(r$worst, r$C * (1 + 1e-12))
  # level-uniform bound max_tau max(tau, 1 - tau) ||x||_max (Algorithm 2)
  expect_equal(r$C, 0.9 * sqrt(1 + 9 + 1))
  # it is attained in the limit: the bound is not loose by more than the smoothing
  expect_gt(r$worst, 0.99 * r$C)
  r <- bound_holds("logistic", p, c(-1, 1), box3)
  expect_lte(r$worst, r$C * (1 + 1e-12))
  r <- bound_holds("squared", p, c(-1, 1), box3, yb = c(-3, 7))
  expect_lte(r$worst, r$C * (1 + 1e-12))
  r <- bound_holds("mean", 2, rbind(c(-5, 5), c(0, 2)), rbind(c(-1, 3), c(-4, 4)), scale = 0.5)
  expect_lte(r$worst, r$C * (1 + 1e-12))
  r <- bound_holds("exponential", 1, c(0, 12), c(0.2, 12))
  expect_lte(r$worst, r$C * (1 + 1e-12))
})

test_that("the trainer's statistic clips every record's gradient to norm C", {
  set.seed(33)
  for (prec in c("double", "float")) {
    for (nm in c("huber", "quantile", "squared", "mean", "exponential", "logistic")) {
      cs <- cases()[[nm]]
      y <- if (is.null(cs$y)) numeric(0) else cs$y * 50  # large residuals: many clipped
      tau <- if (is.null(cs$tau)) 0.5 else cs$tau
      x <- cs$x
      if (prec == "float") storage.mode(x) <- "double"
      g <- loss_eval(cs$s, cs$theta, x, y, tau)$private_score  # what the trainer clips
      C <- stats::median(sqrt(rowSums(g^2)))  # half the records need clipping
      for (i in seq_len(min(12, nrow(x)))) {
        s1 <- pgbb:::cpp_statistic(cs$s, cs$theta, x[i, , drop = FALSE], if (length(y)) y[i] else y,
                                   tau, C, 1, prec)
        # Never above C: the guard is what the accountant's sensitivity relies on.
        expect_lte(sqrt(sum(s1^2)), C)
        if (prec == "double") {
          gi <- g[i, ]
          expect_equal(s1, gi * min(1, C / sqrt(sum(gi^2))), tolerance = 1e-10, info = nm)
        }
      }
      # Weighted sums of clipped gradients.
      w <- runif(nrow(x))
      sw <- pgbb:::cpp_statistic(cs$s, cs$theta, x, y, tau, C, w, prec)
      ref <- colSums(w * g * pmin(1, C / sqrt(rowSums(g^2))))
      # float rows round x and y to 24 bits: 1e-4 relative covers the residuals' cancellation
      expect_equal(sw, ref, tolerance = if (prec == "double") 1e-10 else 1e-4, info = paste(nm, prec))
    }
  }
  # Non-finite gradients contribute nothing.
  s <- spec("squared", 1)
  expect_equal(pgbb:::cpp_statistic(s, 1, matrix(1), 1e308, 0.5, 1, 1e10, "double"), 0)
})
