# Gaussian DP conversions (Proposition 3.6, 3.7, 5.3 of the one-shot CR paper)
# against closed forms and an independent hockey-stick divergence by quadrature.

# delta(eps) = sup_E Q(E) - e^eps P(E) for P = N(0,1), Q = N(mu,1): the integral of
# (q - e^eps p)_+ over x > x*, x* = eps/mu + mu/2 the crossing point. Written from
# the definition with dnorm/integrate only (no pnorm), so it shares nothing with the
# package's formula.
hockey_stick <- function(mu, eps) {
  xs <- eps / mu + mu / 2
  f <- function(x) dnorm(x, mean = mu) - exp(eps) * dnorm(x)
  stats::integrate(f, xs, Inf, rel.tol = 1e-12, abs.tol = 0)$value
}

test_that("gdp_delta matches an independent hockey-stick integral", {
  grid <- expand.grid(mu = c(0.1, 0.5, 1, 2, 4, 8), eps = c(0, 0.1, 1, 3, 6))
  for (r in seq_len(nrow(grid))) {
    mu <- grid$mu[r]; eps <- grid$eps[r]
    ref <- hockey_stick(mu, eps)
    if (ref < 1e-250) next
    # integrate() at rel.tol 1e-12 on a smooth unimodal integrand: 1e-8 relative is ample.
    expect_equal(gdp_delta(mu, eps), ref, tolerance = 1e-8, info = sprintf("mu=%g eps=%g", mu, eps))
  }
})

test_that("gdp_delta closed forms and limits", {
  # eps = 0: delta = 2 Phi(mu/2) - 1 = TV(N(0,1), N(mu,1)).
  for (mu in c(0.01, 0.3, 1, 5)) expect_equal(gdp_delta(mu, 0), 2 * pnorm(mu / 2) - 1, tolerance = 1e-13)
  expect_equal(gdp_delta(0, 1), 0)
  expect_equal(gdp_delta(Inf, 1), 1)
  expect_equal(gdp_delta(1, Inf), 0)
  # Decreasing in eps, increasing in mu.
  d <- gdp_delta(1, seq(0, 5, by = 0.25))
  expect_true(all(diff(d) < 0))
  d2 <- gdp_delta(seq(0.1, 5, by = 0.1), 1)
  expect_true(all(diff(d2) > 0))
})

test_that("gdp_delta is stable in log space for large eps / mu", {
  # Reference: log delta by high-precision arithmetic with Rmpfr when available,
  # otherwise by the exact identity delta = phi(a) (R(-a) - R(-b)) with the Mills
  # ratio R evaluated by pnorm(log.p = TRUE) (a different route from the package's).
  cases <- list(c(1, 40), c(0.5, 30), c(2, 200), c(0.1, 5))
  for (cs in cases) {
    mu <- cs[1]; eps <- cs[2]
    l <- gdp_delta(mu, eps, log = TRUE)
    expect_true(is.finite(l))
    a <- -eps / mu + mu / 2; b <- -eps / mu - mu / 2
    if (requireNamespace("Rmpfr", quietly = TRUE)) {
      prec <- 400
      A <- Rmpfr::mpfr(a, prec); Bm <- Rmpfr::mpfr(b, prec)
      Phi <- function(z) Rmpfr::pnorm(z)
      ref <- as.numeric(log(Phi(A) - exp(Rmpfr::mpfr(eps, prec)) * Phi(Bm)))
    } else {
      la <- pnorm(a, log.p = TRUE); lb <- pnorm(b, log.p = TRUE)
      ref <- la + log1p(-exp(eps + lb - la))
    }
    # 1e-9 relative on log delta (|log delta| up to ~5e3): far below any effect on a
    # privacy statement.
    expect_equal(l, ref, tolerance = 1e-9, info = sprintf("mu=%g eps=%g", mu, eps))
  }
  expect_equal(gdp_delta(1, 1000), 0)  # underflows to 0, never NaN
  expect_false(is.nan(gdp_delta(1e-3, 1e3, log = TRUE)))
})

test_that("gdp_mu returns the largest feasible mu (feasible side)", {
  for (eps in c(0.1, 0.5, 1, 2, 5)) for (delta in c(1e-10, 1e-6, 1e-3, 0.05)) {
    mu <- gdp_mu(eps, delta)
    expect_true(gdp_delta(mu, eps) <= delta)                 # private side
    expect_true(gdp_delta(mu * (1 + 1e-9), eps) > delta)       # and tight
    # Independent check: the hockey-stick integral at the returned mu.
    if (delta > 1e-200) expect_lte(hockey_stick(mu, eps), delta * (1 + 1e-7))
  }
  # Known value (Dong et al. 2022, Figure/Table): 1-GDP is (1, 0.1269)-DP.
  expect_equal(gdp_delta(1, 1), 0.126936, tolerance = 1e-5)
  expect_equal(gdp_mu(1, gdp_delta(1, 1)), 1, tolerance = 1e-10)
})

test_that("gdp_epsilon inverts the profile on the feasible side", {
  for (mu in c(0.2, 1, 3, 8)) for (delta in c(1e-8, 1e-5, 1e-2)) {
    eps <- gdp_epsilon(mu, delta)
    expect_true(gdp_delta(mu, eps) <= delta)
    if (eps > 0) expect_true(gdp_delta(mu, eps * (1 - 1e-9)) > delta)
  }
  expect_equal(gdp_epsilon(0.001, 0.5), 0)
})

test_that("composition: sqrt of sum of squares and approximate-GDP deltas", {
  expect_equal(gdp_compose(3, 4), 5)
  expect_equal(gdp_compose(c(1, 1), 1, 1), 2)
  expect_equal(gdp_compose(rep(1e200, 4)), 2e200)  # no overflow
  r <- gdp_compose(c(1, 2), delta = c(0.1, 0.2))
  expect_equal(unname(r["mu"]), sqrt(5))
  expect_equal(unname(r["delta"]), 1 - 0.9 * 0.8)
  tiny <- gdp_compose(rep(1, 3), delta = rep(1e-18, 3))
  expect_equal(unname(tiny["delta"]), 3e-18, tolerance = 1e-12)
  # Proposition 5.3 for two halves of (mu, delta): CR-SS's accounting.
  half <- gdp_compose(8 / sqrt(2), 8 / sqrt(2), delta = c(1e-6, 1e-6) / 2)
  expect_equal(unname(half["mu"]), 8)
  expect_lte(unname(half["delta"]), 1e-6)
})

test_that("Gaussian mechanism scale Delta / mu is mu-GDP (Prop. 3.7)", {
  expect_equal(gdp_noise_scale(0.5, 2), 0.25)
  # Releasing f + (Delta/mu) Z for two neighbours at distance Delta is exactly the
  # pair N(0, s^2), N(Delta, s^2) = (scaled) N(0,1), N(mu,1): its hockey stick equals
  # delta_mu(eps).
  s <- gdp_noise_scale(0.3, 1.5)
  f <- function(x) dnorm(x, 0.3, s) - exp(1) * dnorm(x, 0, s)
  xs <- s^2 * 1 / 0.3 + 0.3 / 2
  ref <- integrate(f, xs, Inf, rel.tol = 1e-12)$value
  expect_equal(ref, gdp_delta(1.5, 1), tolerance = 1e-8)
})

test_that("pure DP <-> GDP conversion is the tight one", {
  for (eps in c(0.5, 1, 3, 6)) {
    mu <- pgbb:::.pure_dp_to_gdp(eps)
    # G_mu <= f_{eps,0} on a fine grid (eps-DP implies mu-GDP) ...
    a <- seq(0, 1, length.out = 2001)
    G <- pnorm(qnorm(1 - a) - mu)
    f <- pmax(1 - exp(eps) * a, exp(-eps) * (1 - a), 0)
    expect_true(all(G <= f + 1e-12))
    # ... with equality at the kink a = 1 / (1 + e^eps).
    ak <- 1 / (1 + exp(eps))
    expect_equal(pnorm(qnorm(1 - ak) - mu), ak, tolerance = 1e-10)
    expect_equal(pgbb:::.gdp_to_pure_dp(mu), eps, tolerance = 1e-10)
  }
})

test_that("internal normal quantile and log-cdf agree with R", {
  p <- c(1e-300, 1e-20, 1e-8, 0.01, 0.3, 0.5, 0.77, 0.999, 1 - 1e-12)
  expect_equal(pgbb:::cpp_norm_quantile(p), qnorm(p), tolerance = 1e-13)
  x <- c(-1e4, -200, -40, -37.5, -36.9, -10, -1, 0, 2, 9)
  expect_equal(pgbb:::cpp_log_norm_cdf(x), pnorm(x, log.p = TRUE), tolerance = 1e-13)
})

test_that("argument checks name the argument", {
  expect_error(gdp_delta(-1, 1), "'mu'")
  expect_error(gdp_mu(1, 0), "'delta'")
  expect_error(gdp_mu(-1, 0.1), "'epsilon'")
  expect_error(gdp_compose(1, delta = c(0.1, 0.1)), "'delta'")
  expect_error(gdp_noise_scale(1, 0), "'mu'")
})
