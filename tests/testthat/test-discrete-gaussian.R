# The float-safe releases (src/core/discrete_gaussian.h, R/gaussian-mechanism.R):
# the sampler's law, the privacy bounds the package relies on, checked against
# independent numerical computations from the discrete Gaussian's pmf, and the
# front ends that publish grid values.

# log P[Z >= j] for j = 0..K of Z ~ N_Z(0, v), from the pmf (independent of the
# C++ code), by a reverse cumulative log-sum-exp in log space (no subnormals).
dg_log_upper <- function(v, K) {
  lw <- -(0:K)^2 / (2 * v)
  lz <- log(2 * sum(exp(lw)) - 1)
  out <- numeric(K + 1)
  acc <- -Inf  # the sum beyond K is left out: callers use only j well below K
  for (i in (K + 1):1) {
    acc <- if (is.finite(acc)) lw[i] + log1p(exp(acc - lw[i])) else lw[i]
    out[i] <- acc
  }
  out - lz
}

# The mu that the tradeoff vertex at threshold t needs against a shift d:
# u(t) - u(t - d), u(t) = Phi^{-1}(P[Z < t]), over |t| <= range (in units of sd).
dg_needed_mu <- function(v, d, range = 60) {
  s <- sqrt(v)
  K <- ceiling(range * s) + d + 2
  lt <- dg_log_upper(v, K + ceiling(20 * s))  # the tail sums need terms beyond the range
  # t > 0: P[Z >= t] = lt; t <= 0: P[Z < t] = P[Z >= 1 - t] by symmetry.
  u <- function(t) {
    up <- t > 0
    q <- stats::qnorm(lt[pmin(ifelse(up, t, 1 - t), K) + 1], lower.tail = FALSE, log.p = TRUE)
    ifelse(up, q, -q)
  }
  t <- seq(-K + d + 1, K)
  m <- u(t) - u(t - d)
  max(m[is.finite(m)])
}

test_that("the discrete Gaussian sampler has the exact pmf, tails included", {
  for (v in c(3, 40, 1e6)) {
    z <- cpp_discrete_gaussian(60000, v, fixed_key(31))
    expect_true(all(z == round(z)))
    s <- sqrt(v)
    # Bins of width about sd / 4 so the test has power at every v (Pearson
    # chi-square, p > 1e-4 at a fixed key: a 1-in-10,000 false alarm).
    w <- max(1, floor(s / 4))
    edges <- c(-Inf, seq(-4 * s, 4 * s, by = w), Inf)
    k <- seq(-ceiling(12 * s), ceiling(12 * s))
    pk <- exp(-k^2 / (2 * v)); pk <- pk / sum(pk)
    p <- diff(c(0, cumsum(tapply(pk, cut(k, edges, right = FALSE), sum, default = 0))))
    o <- as.numeric(table(cut(z, edges, right = FALSE)))
    keep <- p * length(z) >= 5
    stat <- sum((o[keep] - length(z) * p[keep])^2 / (length(z) * p[keep]))
    expect_gt(stats::pchisq(stat, sum(keep) - 1, lower.tail = FALSE), 1e-4)
    # Tail beyond 3 sd: within 4.5 binomial standard errors of the exact mass.
    tail <- sum(pk[abs(k) >= 3 * s])
    expect_lt(abs(mean(abs(z) >= 3 * s) - tail), 4.5 * sqrt(tail * (1 - tail) / length(z)))
  }
})

test_that("the grid noise is mu-GDP at the continuous mechanism's mu (margin 1 + 1/s0^2)", {
  # Independent computation of every tradeoff vertex: the plan's variance
  # (s0 (1 + 1 / s0^2))^2, rounded up, meets mu = d / s0 for every shift d <= s0
  # multiple; the bare variance s0^2 does not (the margin is needed, so this
  # test fails if it is dropped).
  for (s0 in c(4, 7.3, 16, 40)) {
    v_plan <- ceiling((s0 * (1 + 1 / s0^2))^2)
    v_bare <- s0^2
    for (d in unique(c(1L, as.integer(round(s0)), as.integer(round(2 * s0))))) {
      expect_lte(dg_needed_mu(v_plan, d), d / s0)
      if (d == round(s0)) expect_gt(dg_needed_mu(v_bare, d), d / s0)
    }
  }
})

test_that("the package's own plans meet the continuous mu with the rounding charged", {
  # For the plans the releases use (sd >= 1024 grid units), the worst integer
  # shift after rounding, floor(Delta / grid + 1) (|round(a) - round(b)| <=
  # |a - b| + 1), against the released variance:
  # the needed mu (vertices within 8 sd, where the worst vertex lies, see
  # above) is at most the continuous mechanism's Delta / sigma.
  for (cfg in list(c(sigma = 2, sens = 1), c(sigma = 0.3, sens = 1.7), c(sigma = 5e-3, sens = 1e-3))) {
    pl <- cpp_grid_gaussian_plan(cfg[["sigma"]], cfg[["sens"]], 1L)
    expect_equal(log2(pl$grid), round(log2(pl$grid)))
    shift <- floor(cfg[["sens"]] / pl$grid + 1)
    expect_lte(dg_needed_mu(pl$variance, shift, range = 8), cfg[["sens"]] / cfg[["sigma"]])
    expect_gte(pl$sd, cfg[["sigma"]])
    expect_lte(pl$sd, cfg[["sigma"]] * 1.002)  # the charge costs at most 1/1024 of the sensitivity
  }
})

test_that("Renyi divergences of integer shifts are at most the continuous alpha d^2 / (2 v)", {
  # DP-Bootstrap's accountant uses this bound per multiplicity (CKS Proposition 5).
  for (v in c(2, 9, 150)) for (d in c(1, 3, 10)) for (a in c(2, 5, 16)) {
    k <- seq(-ceiling(30 * sqrt(v)) - d, ceiling(30 * sqrt(v)) + d)
    lp <- -k^2 / (2 * v); lq <- -(k - d)^2 / (2 * v)
    lz <- log(sum(exp(lp)))
    lp <- lp - lz; lq <- lq - lz   # same normaliser for an integer shift
    top <- max(a * lp + (1 - a) * lq)
    div <- (top + log(sum(exp(a * lp + (1 - a) * lq - top)))) / (a - 1)
    expect_lte(div, a * d^2 / (2 * v) * (1 + 1e-12))
  }
})

test_that("grid releases are exact multiples of a power of two and hide sub-grid differences", {
  pl <- cpp_grid_gaussian_plan(0.5, 0.25, 3L)
  x <- c(pi, -exp(1), 1e-3)
  r1 <- cpp_grid_gaussian_release(x, 0.5, 0.25, fixed_key(32))
  expect_identical(r1 / pl$grid, round(r1 / pl$grid))
  # A statistic moved by a tenth of the grid releases the same values: the low
  # bits a floating-point Gaussian would leak (Mironov 2012) are not there.
  r2 <- cpp_grid_gaussian_release(x + pl$grid / 10, 0.5, 0.25, fixed_key(32))
  expect_identical(r1, r2)
  expect_error(cpp_grid_gaussian_plan(-1, 1, 1L), "noise scale")
})

test_that("every front end publishes grid values and models the released noise sd", {
  set.seed(7)
  x <- stats::runif(400)
  # CR-GS: centre and radius on their grids.
  g <- quiet_zero_radius(cr_gs(x, "mean", mu = 1, bounds = c(0, 1), B = 40))
  Dn <- g$noise$Delta_n
  cpl <- cpp_grid_gaussian_plan(g$noise$nu_n, Dn, 1L)
  expect_identical(g$center[[1]] / cpl$grid, round(g$center[[1]] / cpl$grid))
  expect_equal(g$noise$released_sd[["center"]], cpl$sd)
  expect_match(format(g), "exact discrete Gaussian", all = FALSE)
  # CR-SS: the centre lies on the grid its released bound fixes (PTR step 2).
  s <- quiet_radius_noise(cr_ss(stats::runif(2000), "quantile", prob = 0.5, mu = 2, delta = 1e-6,
                                bounds = c(0, 1), B = 40))
  b <- s$noise$center_bound
  spl <- cpp_grid_gaussian_plan(b / 1, b, 1L)  # mu / 2 = 1
  expect_identical(s$center[[1]] / spl$grid, round(s$center[[1]] / spl$grid))
  # NoisyGibbs: the released sum is on its grid; the sampler uses the released sd.
  f <- noisy_gibbs(stats::rnorm(500, 1, 0.5), family = "gaussian", sigma = 0.5, epsilon = 1,
                   delta = 1e-5, bounds = c(-2, 4), iterations = 2000)
  npl <- cpp_grid_gaussian_plan(f$ledger$noise_scale[["sum"]], 6, 1L)
  expect_identical(f$released$sum / npl$grid, round(f$released$sum / npl$grid))
  expect_match(f$ledger$noise_law, "discrete Gaussian")
  expect_output(print(f), "exact discrete Gaussian")
  # DP-Bootstrap mean: every replicate on its grid.
  d <- dp_bootstrap(x, method = "mean", epsilon = 1, delta = 1e-5, bounds = c(0, 1), B = 20)
  dpl <- cpp_grid_gaussian_plan(d$ledger$noise_scale[["replicate"]], 1 / 400, 1L)
  v <- d$draws[, "mean"]
  expect_identical(v / dpl$grid, round(v / dpl$grid))
})

test_that("noise beyond the exact sampler's range is refused naming the argument", {
  expect_error(.discrete_noise(1e10, 1, 1L, "epsilon"), "'epsilon'")
})
