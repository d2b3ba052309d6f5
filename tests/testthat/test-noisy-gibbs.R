# NoisyGibbs (Bernstein & Sheldon 2018, 2019; PGBB paper SM S3.1-S3.2): privacy
# calibration checked like an accountant, sensitivities by adversarial neighbours,
# the sampler against closed-form posteriors, recovery at a large budget, errors.

# ---- calibration ---------------------------------------------------------------

test_that("classical calibration matches the Dwork-Roth formula, analytic the exact profile", {
  set.seed(1)
  x <- rnorm(200, 1, 0.5)
  for (eps in c(0.5, 2)) {
    delta <- 1e-3
    fc <- noisy_gibbs(x, family = "gaussian", sigma = 0.5, epsilon = eps, delta = delta,
                      bounds = c(-5, 5), calibration = "classical", iterations = 20)
    expect_equal(unname(fc$ledger$noise_scale), 10 * sqrt(2 * log(1.25 / delta)) / eps,
                 tolerance = 1e-12)
    expect_equal(unname(fc$ledger$sensitivity), 10)
    fa <- noisy_gibbs(x, family = "gaussian", sigma = 0.5, epsilon = eps, delta = delta,
                      bounds = c(-5, 5), iterations = 20)
    expect_identical(fa$ledger$calibration, "analytic")
    sig <- unname(fa$ledger$noise_scale)
    # Independent: sigma = Delta / mu with mu the largest root of the exact profile.
    expect_equal(sig, 10 / ref_gdp_mu(eps, delta), tolerance = 1e-6)
    # Brute-force hockey stick at that sigma: never above delta (upper bound), and
    # tight (the analytic sigma is the smallest feasible one).
    d <- hockey_stick_delta(10, sig, eps)
    expect_lte(d, delta * (1 + 1e-6))
    expect_gt(d, delta * 0.999)
    # The analytic noise is never larger than the classical one in this range.
    expect_lte(sig, unname(fc$ledger$noise_scale))
  }
})

test_that("a classical release that is not (eps, delta)-DP is refused; one that is, is verified", {
  set.seed(2)
  x <- rexp(100)
  # eps = 16, delta = 1e-4: the classical sigma has exact delta ~ 34 x the target.
  expect_error(noisy_gibbs(x, family = "exponential", epsilon = 16, delta = 1e-4,
                           bounds = c(0, 12), calibration = "classical", iterations = 20),
               "does not give \\(epsilon, delta\\)-DP")
  # eps = 2 (>= 1, outside the classical proof) but exactly within budget.
  f <- noisy_gibbs(x, family = "exponential", epsilon = 2, delta = 1e-4, bounds = c(0, 12),
                   calibration = "classical", iterations = 20)
  r <- f$ledger$releases
  expect_lte(hockey_stick_delta(r$sensitivity, r$noise_sd, r$epsilon), 1e-4)
  expect_equal(r$exact_delta, hockey_stick_delta(r$sensitivity, r$noise_sd, r$epsilon),
               tolerance = 1e-6)
  expect_match(f$ledger$guarantee, "verified per release")
})

test_that("linear regression: SM S3.2 sensitivities, budget split and per-release noise", {
  set.seed(3)
  n <- 3000; p <- 3
  X <- matrix(runif(n * p, -1, 1), n, p)
  y <- drop(X %*% c(1, -1, 0.5)) + rnorm(n)
  bx <- 1.5; by <- 4
  for (cal in c("analytic", "classical")) {
    # 20 iterations: only the release matters here (the mixing warning is expected).
    f <- suppressWarnings(noisy_gibbs(X, y, family = "linear", epsilon = 0.8, delta = 1e-4,
                                      bounds = c(x = bx, y = by), iterations = 20, calibration = cal))
    sens <- c(2 * sqrt(p * (p + 1) / 2 * bx^4 + p * bx^2 * by^2 + by^4),
              2 / n * bx^2 * sqrt(p * (p + 1) / 2),
              2 / n * bx^4 * sqrt(choose(p + 3, 4)))
    expect_equal(unname(f$ledger$sensitivity), sens, tolerance = 1e-14)
    expect_equal(unname(f$ledger$split), c(1/2, 1/4, 1/4))
    r <- f$ledger$releases
    expect_equal(r$epsilon, 0.8 * c(1/2, 1/4, 1/4))
    expect_equal(r$delta, 1e-4 * c(1/2, 1/4, 1/4))
    # Basic composition: the parts add up to the total budget.
    expect_equal(sum(r$epsilon), 0.8)
    expect_equal(sum(r$delta), 1e-4)
    expect_equal(r$dimension, c(10L, 6L, 15L))
    ref <- if (cal == "classical") sens * sqrt(2 * log(1.25 / r$delta)) / r$epsilon else
      sens / vapply(seq_along(sens), function(i) ref_gdp_mu(r$epsilon[i], r$delta[i]), 0)
    expect_equal(r$noise_sd, ref, tolerance = 1e-6)
    for (i in 1:3)
      expect_lte(hockey_stick_delta(sens[i], r$noise_sd[i], r$epsilon[i]), r$delta[i] * (1 + 1e-6))
    # The three Gaussian releases together are exactly mu-GDP, mu = sqrt(sum (Delta_i / sigma_i)^2),
    # and that mu meets the total budget (tighter than basic composition).
    mu <- sqrt(sum((sens / r$noise_sd)^2))
    expect_equal(f$ledger$mu, mu, tolerance = 1e-12)
    expect_lte(hockey_stick_delta(mu, 1, 0.8), 1e-4)
  }
})

test_that("the release adds Gaussian noise at exactly the calibrated scale", {
  # Fixed data, many releases: z - (clipped sum) must be N(0, sigma^2). With 4000
  # releases the sample sd has relative sd 1/sqrt(8000) ~ 1.1%; 5% is > 4 SE.
  set.seed(4)
  x <- c(runif(50, -1, 1), 7, -9)          # two records outside the bounds
  exact <- sum(pmin(pmax(x, -2), 2))
  z <- replicate(4000, pgbb:::cpp_ng_expfam_release(x, -2, 2, 3.5, pgbb:::.rng_seed()))
  expect_equal(sd(z - exact), 3.5, tolerance = 0.05)
  expect_lt(abs(mean(z - exact)), 5 * 3.5 / sqrt(4000))
  X <- matrix(runif(40, -1, 1), 20, 2)
  y <- rnorm(20)
  st <- pgbb:::cpp_ng_linear_statistics(X, y, 1, 3)
  rel <- replicate(1000, unlist(pgbb:::cpp_ng_linear_release(X, y, 1, 3, 2, 0.1, 0.3, c(1, 0.05, 0.15),
                                                             pgbb:::.rng_seed())))
  dev <- rel - unlist(st)
  # 1000 releases x (6, 3, 5) coordinates: relative sd of the pooled sd <= 1/sqrt(6000).
  expect_equal(sd(dev[1:6, ]), 2, tolerance = 0.06)
  expect_equal(sd(dev[7:9, ]), 0.1, tolerance = 0.06)
  expect_equal(sd(dev[10:14, ]), 0.3, tolerance = 0.06)
  # Independent coordinates (no shared noise): small correlations only.
  expect_lt(max(abs(cor(t(dev[1:6, ])) - diag(6))), 0.15)
})

# ---- sensitivity by adversarial neighbours ---------------------------------------

test_that("the clipped sum moves by at most b - a when one record is replaced", {
  set.seed(5)
  a <- -5; b <- 5
  x <- rnorm(100, 1.5, 3)
  s <- function(v) pgbb:::cpp_ng_expfam_release(v, a, b, 0, fixed_key(1))  # sigma = 0: exact sum
  worst <- 0
  for (i in c(1, 50, 100)) for (v in c(a, b, -1e8, 1e8, 0, x[i])) for (orig in c(a, b)) {
    x0 <- x; x0[i] <- orig
    x1 <- x0; x1[i] <- v
    worst <- max(worst, abs(s(x1) - s(x0)))
  }
  expect_lte(worst, b - a + 1e-9)
  expect_equal(worst, b - a)  # attained: the bound is tight
})

test_that("SM S3.2 regression sensitivities bound every adversarial neighbour", {
  set.seed(6)
  n <- 40; p <- 3; bx <- 1; by <- 2
  X <- matrix(runif(n * p, -1, 1), n, p)
  y <- rnorm(n)
  sens <- pgbb:::.ng_linear_sensitivity(n, p, bx, by)
  stats <- function(X, y) pgbb:::cpp_ng_linear_statistics(X, y, bx, by)
  # Corners of the clipping box (and far outside it, which clips to the corners).
  corners <- as.matrix(expand.grid(rep(list(c(-1, 1)), p + 1)))
  worst <- c(0, 0, 0)
  for (r0 in seq_len(nrow(corners))) for (r1 in seq_len(nrow(corners))) {
    X0 <- X; y0 <- y; X1 <- X; y1 <- y
    X0[1, ] <- corners[r0, 1:p] * bx; y0[1] <- corners[r0, p + 1] * by
    X1[1, ] <- corners[r1, 1:p] * 1e6; y1[1] <- corners[r1, p + 1] * 1e6
    s0 <- stats(X0, y0); s1 <- stats(X1, y1)
    worst <- pmax(worst, c(sqrt(sum((s0$s - s1$s)^2)), sqrt(sum((s0$m2 - s1$m2)^2)),
                           sqrt(sum((s0$m4 - s1$m4)^2))))
  }
  # Interior replacements too (the bound must hold for every pair).
  for (k in 1:200) {
    X1 <- X; y1 <- y
    X1[7, ] <- runif(p, -3, 3); y1[7] <- runif(1, -5, 5)
    s0 <- stats(X, y); s1 <- stats(X1, y1)
    worst <- pmax(worst, c(sqrt(sum((s0$s - s1$s)^2)), sqrt(sum((s0$m2 - s1$m2)^2)),
                           sqrt(sum((s0$m4 - s1$m4)^2))))
  }
  expect_true(all(worst <= unname(sens) * (1 + 1e-12)))
  # And the search did find neighbours at a sizeable fraction of each bound.
  expect_true(all(worst >= 0.5 * unname(sens)))
})

# ---- the sampler against closed forms ---------------------------------------------

test_that("zero noise: Gaussian-mean draws are the closed-form normal posterior", {
  set.seed(7)
  n <- 60; sig <- 0.7; m0 <- 0.3; v0 <- 2
  x <- rnorm(n, 1, sig)
  s <- sum(x)
  g <- pgbb:::cpp_ng_expfam_gibbs("gaussian", s, 0, n, -10, 10, sig, m0, v0, 3000, 0, 1,
                                  pgbb:::.rng_seed())
  prec <- 1 / v0 + n / sig^2
  pm <- (m0 / v0 + s / sig^2) / prec
  # i.i.d. draws on this path: a KS test at level 1e-3 fails only by chance.
  expect_gt(ks.test(g$theta, "pnorm", pm, 1 / sqrt(prec))$p.value, 1e-3)
  expect_true(all(g$latent == s))
})

test_that("zero noise: exponential-rate draws are the closed-form gamma posterior", {
  set.seed(8)
  n <- 80
  x <- rexp(n, 0.5)
  s <- sum(x)
  g <- pgbb:::cpp_ng_expfam_gibbs("exponential", s, 0, n, 0, 100, 1, 2, 3, 3000, 0, 1,
                                  pgbb:::.rng_seed())
  expect_gt(ks.test(g$theta, "pgamma", shape = 2 + n, rate = 3 + s)$p.value, 1e-3)
})

test_that("with noise, the Gaussian-mean chain targets the exact noise-aware posterior", {
  # For the Gaussian model the whole hierarchy is jointly normal:
  # z | mu ~ N(n mu, n sigma^2 + tau^2), so mu | z is normal in closed form. The bounds
  # are wide, so the truncation of the latent to [n a, n b] is immaterial.
  set.seed(9)
  n <- 50; sig <- 1; m0 <- 0; v0 <- 4; tau <- 30
  z <- 60
  g <- pgbb:::cpp_ng_expfam_gibbs("gaussian", z, tau, n, -50, 50, sig, m0, v0, 105000, 5000, 1,
                                  pgbb:::.rng_seed())
  prec <- 1 / v0 + n^2 / (n * sig^2 + tau^2)
  pm <- (m0 / v0 + n * z / (n * sig^2 + tau^2)) / prec
  psd <- 1 / sqrt(prec)
  # The chain is autocorrelated; batch means (50 batches) give its Monte Carlo SE.
  bm <- colMeans(matrix(g$theta, ncol = 50))
  mcse <- sd(bm) / sqrt(50)
  expect_lt(abs(mean(g$theta) - pm), 5 * mcse + 1e-3 * psd)
  # Lag-one autocorrelation ~0.94 here, so ~2700 effective draws: the sd has ~1.4%
  # Monte Carlo error; 6% is > 4 of those.
  expect_equal(sd(g$theta), psd, tolerance = 0.06)
})

test_that("zero noise: linear-regression draws are the conjugate normal-inverse-gamma posterior", {
  set.seed(10)
  n <- 150; p <- 2
  X <- cbind(1, runif(n, -1, 1))
  y <- drop(X %*% c(0.5, 2)) + rnorm(n, sd = 0.4)
  bx <- 1; by <- 5
  st <- pgbb:::cpp_ng_linear_statistics(X, y, bx, by)
  m0 <- c(0.1, -0.2); L0 <- diag(c(0.5, 0.2)); a0 <- 2; b0 <- 0.5
  g <- pgbb:::cpp_ng_linear_gibbs(st$s, 0, st$m2, st$m4, n, p, m0, L0, a0, b0, 4000, 0, 1,
                                  pgbb:::.rng_seed())
  # Closed form from the data, computed here without the package.
  Xc <- pmin(pmax(X, -bx), bx); yc <- pmin(pmax(y, -by), by)
  Ln <- crossprod(Xc) + L0
  mn <- solve(Ln, L0 %*% m0 + crossprod(Xc, yc))
  an <- a0 + n / 2
  bn <- b0 + 0.5 * drop(sum(yc^2) + t(m0) %*% L0 %*% m0 - t(mn) %*% Ln %*% mn)
  # sigma^2 ~ IG(an, bn) <=> 1 / sigma^2 ~ Gamma(an, bn); i.i.d. on this path.
  expect_gt(ks.test(1 / g$sigma2, "pgamma", shape = an, rate = bn)$p.value, 1e-3)
  # theta: multivariate t with mean mn and covariance bn / (an - 1) Ln^{-1}.
  V <- bn / (an - 1) * solve(Ln)
  expect_lt(max(abs(colMeans(g$theta) - drop(mn)) / sqrt(diag(V) / 4000)), 4.5)
  expect_equal(cov(g$theta), V, tolerance = 0.1)  # 4000 draws: ~2-3% MC error per entry
  # theta_j standardised by its t scale is Student-t with 2 an degrees of freedom.
  tj <- (g$theta[, 2] - mn[2]) / sqrt(bn / an * solve(Ln)[2, 2])
  expect_gt(ks.test(tj, "pt", df = 2 * an)$p.value, 1e-3)
})

# ---- recovery as the budget grows ---------------------------------------------------

test_that("NoisyGibbs recovers the truth at epsilon = 64", {
  set.seed(11)
  x <- rnorm(2000, 1.5, 0.5)
  f <- noisy_gibbs(x, family = "gaussian", sigma = 0.5, epsilon = 64, delta = 1e-4, bounds = c(-5, 5))
  ci <- confint(f)
  # Posterior sd ~ 0.5 / sqrt(2000) = 0.011: the truth is well inside a 95% interval
  # unless a 1-in-20 event; check against the sample mean (the non-private estimate)
  # and the truth with 5 posterior sds.
  expect_lt(abs(coef(f) - mean(x)), 0.01)
  expect_lt(abs(coef(f) - 1.5), 5 * 0.5 / sqrt(2000))
  expect_equal(unname(apply(f$draws, 2, sd)), 0.5 / sqrt(2000), tolerance = 0.15)
  xe <- rexp(2000, 0.5)
  fe <- noisy_gibbs(xe, family = "exponential", epsilon = 64, delta = 1e-4, bounds = c(0, 12))
  expect_lt(abs(coef(fe)[["mean"]] - mean(xe)), 0.02)
  expect_lt(abs(coef(fe)[["mean"]] - 2), 5 * 2 / sqrt(2000))
})

test_that("linear NoisyGibbs recovers the coefficients and error sd at epsilon = 64", {
  skip_if_not_slow()
  set.seed(12)
  n <- 5000
  X <- matrix(runif(3 * n, -1, 1), n, 3, dimnames = list(NULL, c("a", "b", "c")))
  y <- drop(X %*% c(1.5, -1.5, 1)) + rnorm(n, sd = 0.5)
  f <- noisy_gibbs(X, y, family = "linear", epsilon = 64, delta = 1e-4, bounds = c(x = 1, y = 6),
                   iterations = 20000)
  ols <- coef(lm(y ~ X - 1))
  # OLS sd ~ 0.5 / sqrt(n / 3) = 0.012; 0.05 allows the remaining privacy noise.
  expect_lt(max(abs(coef(f)[1:3] - ols)), 0.05)
  expect_lt(max(abs(coef(f)[1:3] - c(1.5, -1.5, 1))), 0.06)
  expect_lt(abs(coef(f)[["sigma"]] - 0.5), 0.05)
  ci <- confint(f)
  expect_true(all(ci[1:3, 1] < c(1.5, -1.5, 1) + 0.02 & ci[1:3, 2] > c(1.5, -1.5, 1) - 0.02))
  expect_identical(colnames(f$draws), c("a", "b", "c", "sigma"))
})

# Random-walk Metropolis reference sampler of (theta, log sigma^2): T steps of
# Gaussian proposals with per-coordinate sd `step`; the first `burn` are dropped.
rw_metropolis <- function(logpost, start, step, T = 30000, burn = 5000) {
  cur <- start; l <- logpost(cur)
  out <- matrix(NA_real_, T, length(start))
  for (t in seq_len(T)) {
    prop <- cur + rnorm(length(start)) * step
    lpp <- tryCatch(logpost(prop), error = function(e) -Inf)
    if (log(runif(1)) < lpp - l) { cur <- prop; l <- lpp }
    out[t, ] <- cur
  }
  out[-seq_len(burn), , drop = FALSE]
}

test_that("with noise, the linear Gibbs chain matches a direct sampler of the CLT-marginal posterior", {
  # Integrating the latent statistic out of the approximate model gives
  #   p(theta, sigma^2 | z) propto prior x N(z; n mu_t, n Sigma_t + tau^2 I),
  # with mu_t, Sigma_t built here from the released moments without the package.
  # A random-walk Metropolis sampler of that density is an independent reference
  # for the Gibbs sampler (which never forms it). Truncation to valid statistics is
  # immaterial at this noise level.
  skip_if_not_slow()
  set.seed(15)
  r <- noisy_linear_release(tau = 60)
  g <- release_gibbs(r, 2e5, 2e4, 20)
  out <- rw_metropolis(release_logpost(r), start = c(1, -0.5, log(0.25)), step = c(0.03, 0.03, 0.15))
  ref_mean <- colMeans(out[, 1:2]); ref_sd <- apply(out[, 1:2], 2, sd)
  # Both chains are autocorrelated; with >= 300 effective draws each, the means differ
  # by < 0.1 sd in expectation; 0.4 sd is > 4 standard errors. sds within 25%.
  expect_lt(max(abs(colMeans(g$theta) - ref_mean) / ref_sd), 0.4)
  expect_equal(apply(g$theta, 2, sd), ref_sd, tolerance = 0.25)
  expect_equal(mean(sqrt(g$sigma2)), mean(sqrt(exp(out[, 3]))), tolerance = 0.15)
})

# ---- interface -----------------------------------------------------------------------

test_that("set.seed reproduces a fit; methods give consistent summaries", {
  x <- c(seq(0.1, 3, length.out = 40))
  set.seed(14); f1 <- noisy_gibbs(x, family = "exponential", epsilon = 1, delta = 1e-3, bounds = c(0, 5))
  set.seed(14); f2 <- noisy_gibbs(x, family = "exponential", epsilon = 1, delta = 1e-3, bounds = c(0, 5))
  expect_identical(f1$draws, f2$draws)
  expect_identical(f1$released, f2$released)
  expect_s3_class(f1, c("noisy_gibbs", "private_posterior"))
  expect_identical(dim(f1$draws), c(1000L, 2L))
  expect_equal(f1$draws[, "mean"], 1 / f1$draws[, "rate"])
  df <- as.data.frame(f1)
  expect_named(df, c("method", "term", "tau", "estimate", "sd", "lower", "upper"))
  expect_equal(df$estimate, unname(colMeans(f1$draws)))
  expect_equal(df$lower, unname(apply(f1$draws, 2, quantile, 0.025)))
  ci90 <- confint(f1, "mean", level = 0.9)
  expect_equal(dim(ci90), c(1L, 2L))
  expect_equal(colnames(ci90), c("5 %", "95 %"))
  expect_output(print(f1), "Privacy ledger: NoisyGibbs")
  expect_output(print(f1), "exact delta")
  expect_output(print(summary(f1)), "1000 stored draws")
  expect_error(confint(f1, "nope"), "'parm'")
})

test_that("bad inputs give errors naming the argument", {
  x <- rnorm(30)
  X <- matrix(runif(60, -1, 1), 30, 2)
  y <- rnorm(30)
  ng <- function(...) noisy_gibbs(..., iterations = 20)
  expect_error(ng(x, family = "gaussian", sigma = 1, delta = 0.01, bounds = c(-3, 3)), "'epsilon'")
  expect_error(ng(x, family = "gaussian", sigma = 1, epsilon = -1, delta = 0.01, bounds = c(-3, 3)), "'epsilon'")
  expect_error(ng(x, family = "gaussian", sigma = 1, epsilon = Inf, delta = 0.01, bounds = c(-3, 3)), "'epsilon'")
  expect_error(ng(x, family = "gaussian", sigma = 1, epsilon = 1, delta = 1, bounds = c(-3, 3)), "'delta'")
  expect_error(ng(x, family = "gaussian", sigma = 1, epsilon = 1, delta = 0.01), "'bounds'")
  expect_error(ng(x, family = "gaussian", sigma = 1, epsilon = 1, delta = 0.01, bounds = c(3, -3)), "'bounds'")
  expect_error(ng(x, family = "gaussian", epsilon = 1, delta = 0.01, bounds = c(-3, 3)), "'sigma'")
  expect_error(ng(x, family = "poisson", epsilon = 1, delta = 0.01, bounds = c(-3, 3)), "'family'")
  expect_error(ng(abs(x), family = "exponential", epsilon = 1, delta = 0.01, bounds = c(-1, 3)), "'bounds'")
  expect_error(ng(c(x, NA), family = "gaussian", sigma = 1, epsilon = 1, delta = 0.01, bounds = c(-3, 3)), "'x'")
  expect_error(ng(x, y, family = "gaussian", sigma = 1, epsilon = 1, delta = 0.01, bounds = c(-3, 3)), "'y'")
  expect_error(ng(x, family = "gaussian", sigma = 1, epsilon = 1, delta = 0.01, bounds = c(-3, 3),
                  prior = list(mean = 0, scale = 2)), "'prior'")
  expect_error(ng(x, family = "gaussian", sigma = 1, epsilon = 1, delta = 0.01, bounds = c(-3, 3),
                  prior = list(sd = -1)), "'prior\\$sd'")
  expect_error(ng(x, family = "gaussian", sigma = 1, epsilon = 1, delta = 0.01, bounds = c(-3, 3),
                  calibration = "laplace"), "'calibration'")
  expect_error(noisy_gibbs(x, family = "gaussian", sigma = 1, epsilon = 1, delta = 0.01,
                           bounds = c(-3, 3), iterations = 10, burn_in = 10), "'burn_in'")
  expect_error(noisy_gibbs(x, family = "gaussian", sigma = 1, epsilon = 1, delta = 0.01,
                           bounds = c(-3, 3), iterations = 10, thin = 6), "'thin'")
  expect_error(noisy_gibbs(x, family = "gaussian", sigma = 1, epsilon = 1, delta = 0.01,
                           bounds = c(-3, 3), iterations = 1.5), "'iterations'")
  expect_error(ng(X, family = "linear", epsilon = 1, delta = 0.01, bounds = c(x = 1, y = 3)), "'y'")
  expect_error(ng(X, y[-1], family = "linear", epsilon = 1, delta = 0.01, bounds = c(x = 1, y = 3)), "'y'")
  expect_error(ng(X, y, family = "linear", epsilon = 1, delta = 0.01, bounds = c(-3, 3)), "'bounds'")
  expect_error(ng(X, y, family = "linear", epsilon = 1, delta = 0.01, bounds = c(x = 1, y = -3)), "'bounds'")
  expect_error(ng(X, y, family = "linear", epsilon = 1, delta = 0.01, bounds = c(x = 1, y = 3),
                  split = c(0.5, 0.5, 0.5)), "'split'")
  # Names are read, never ignored: wrong ones are an error, right ones in any order are honoured.
  expect_error(ng(X, y, family = "linear", epsilon = 1, delta = 0.01, bounds = c(x = 1, y = 3),
                  split = c(stats = 0.5, m2 = 0.25, m4 = 0.25)), "'split'.*named exactly")
  f <- suppressWarnings(ng(X, y, family = "linear", epsilon = 1, delta = 0.01, bounds = c(x = 1, y = 3),
                           split = c(m2 = 0.5, m4 = 0.25, statistics = 0.25)))
  expect_equal(f$ledger$split, c(statistics = 0.25, m2 = 0.5, m4 = 0.25))
  expect_equal(unname(f$ledger$releases$epsilon), c(0.25, 0.5, 0.25))
  expect_error(ng(X, y, family = "linear", epsilon = 1, delta = 0.01, bounds = c(x = 1, y = 3),
                  prior = list(precision = diag(c(1, -1)))), "'prior\\$precision'")
  expect_error(ng(X, y, family = "linear", epsilon = 1, delta = 0.01, bounds = c(x = 1, y = 3),
                  prior = list(mean = c(1, 2, 3))), "'prior\\$mean'")
  expect_error(ng(x, family = "linear", epsilon = 1, delta = 0.01, bounds = c(x = 1, y = 3)), "'x'")
})

test_that("formula interface: pgbb-style bounds, results in original units", {
  set.seed(31)
  n <- 3000
  d <- data.frame(x1 = runif(n, 0, 10), x2 = runif(n, -2, 2))
  d$y <- 1 + 0.3 * d$x1 - 0.5 * d$x2 + rnorm(n, sd = 0.5)
  b <- list(x1 = c(0, 10), x2 = c(-2, 2), .response = c(-6, 8))
  # A short chain: this test checks the unit mapping, not mixing (warning expected).
  fit <- suppressWarnings(noisy_gibbs(y ~ x1 + x2, d, family = "linear", epsilon = 32, bounds = b,
                                      iterations = 3000))
  expect_equal(colnames(fit$draws), c("(Intercept)", "x1", "x2", "sigma"))
  expect_equal(fit$ledger$delta, 1e-6)  # the default min(1e-6, 0.01 / n)
  # The matrix method on the same unit-box design, centred response (B_y = 7).
  z <- cbind(1, d$x1 / 10, (d$x2 + 2) / 4)
  expect_equal(fit$details$bounds[["y"]], 7)
  expect_equal(fit$details$formula$y_shift, 1)
  # At epsilon = 32 the posterior mean is close to the truth (posterior sd ~0.03-0.1).
  est <- colMeans(fit$draws)
  expect_lt(abs(est[["x1"]] - 0.3), 0.05)
  expect_lt(abs(est[["x2"]] + 0.5), 0.2)
  expect_error(noisy_gibbs(y ~ x1, d, family = "gaussian", epsilon = 1, bounds = b), "'x'")
})

# ---- mixing at low information --------------------------------------------------------


test_that("at low information the chain is correct but slow: long runs match the reference, short ones warn", {
  # The reported under-coverage (n = 1e4, epsilon = 1, B_y = 10) is slow mixing, not a
  # wrong conditional: the data-augmentation chain moves theta by ~ sqrt(n sigma^2 eta)
  # per step while the posterior spread is ~ tau, so its autocorrelation time is
  # ~ tau^2 / (n sigma^2 eta) iterations or more (more where the posterior puts sigma^2
  # low). Here tau = 300, n = 2000, sigma = 0.5, eta = 1/3: several thousand
  # iterations. A 2e6-iteration chain (~150+ effective draws) must match an
  # independent random-walk sampler of the CLT-marginal posterior.
  skip_if_not_slow()
  set.seed(21)
  r <- noisy_linear_release(tau = 300)
  g <- release_gibbs(r, 2e6, 2e5, 100)
  out <- rw_metropolis(release_logpost(r), start = c(colMeans(g$theta), log(mean(g$sigma2))),
                       step = c(0.12, 0.12, 0.4))
  ref_mean <- colMeans(out[, 1:2]); ref_sd <- apply(out[, 1:2], 2, sd)
  # >= ~150 effective draws in each sampler: means within 0.4 sd (~ 4 standard
  # errors of the difference), sds within 25%.
  expect_lt(max(abs(colMeans(g$theta) - ref_mean) / ref_sd), 0.4)
  expect_equal(apply(g$theta, 2, sd), ref_sd, tolerance = 0.25)
  expect_equal(stats::quantile(sqrt(g$sigma2), 0.5), stats::quantile(exp(out[, 3] / 2), 0.5),
               tolerance = 0.2, ignore_attr = TRUE)
  # The same chain cut to 20000 iterations keeps only a few dozen effective draws:
  # the regime in which quantile intervals under-cover. The fit-level check warns.
  short <- release_gibbs(r, 20000, 10000, 10)
  ess_short <- apply(short$theta, 2, pgbb:::.ess_geyer)
  ess_long <- apply(g$theta, 2, pgbb:::.ess_geyer)
  expect_lt(max(ess_short), 100)
  expect_gt(min(ess_long), 100)
  draws <- cbind(short$theta, sqrt(short$sigma2)); colnames(draws) <- c("a", "b", "sigma")
  expect_warning(pgbb:::.ng_check_mixing(draws, c(iterations = 20000)), "has not mixed")
})

test_that("linear fits report effective sample sizes and warn when the chain has not mixed", {
  set.seed(22)
  n <- 2000
  X <- matrix(runif(2 * n, -1, 1), n, 2, dimnames = list(NULL, c("a", "b")))
  y <- drop(X %*% c(1, -0.5)) + rnorm(n, sd = 0.5)
  # The latent-statistic Gibbs sampler at epsilon = 1 with B_y = 10: tau ~ 1300,
  # autocorrelation time ~ 1e4 iterations, so 5000 iterations cannot hold 100
  # effective draws.
  expect_warning(f <- noisy_gibbs(X, y, family = "linear", epsilon = 1, delta = 1e-4,
                                  bounds = c(x = 1, y = 10), iterations = 5000,
                                  sampler = "gibbs"), "has not mixed")
  expect_identical(f$details$sampler, "gibbs")
  expect_named(f$details$ess, c("a", "b", "sigma"))
  expect_lt(min(f$details$ess), 100)
  # At a large budget the Gibbs chain mixes fast (autocorrelation time ~ 1
  # iteration): no warning. (The marginal random walk needs ~ 20 iterations per
  # effective draw at any budget: 4000 iterations, thinned by 10, are too few for it.)
  expect_no_warning(g <- noisy_gibbs(X, y, family = "linear", epsilon = 64, delta = 1e-4,
                                     bounds = c(x = 1, y = 3), iterations = 4000,
                                     sampler = "gibbs"))
  expect_true(all(g$details$ess >= 100))
})

test_that("noisy_gibbs() is a generic: formula method with data =, default method with loss =", {
  set.seed(31)
  d <- data.frame(x = runif(200)); d$y <- d$x + rnorm(200, sd = 0.3)
  b <- list(x = c(0, 1), .response = c(-2, 3))
  f1 <- suppressWarnings(noisy_gibbs(y ~ x, data = d, epsilon = 4, bounds = b, iterations = 400))
  set.seed(31)
  d2 <- data.frame(x = runif(200)); d2$y <- d2$x + rnorm(200, sd = 0.3)
  f2 <- suppressWarnings(noisy_gibbs(y ~ x, d2, family = "linear", epsilon = 4, bounds = b, iterations = 400))
  expect_s3_class(f1, "noisy_gibbs")
  expect_identical(colnames(f1$draws), colnames(f2$draws))
  # loss = and its former name family = give the same fit under the same seed
  x <- rnorm(100, 1, 0.5)
  set.seed(5); a <- noisy_gibbs(x, loss = "gaussian", sigma = 0.5, epsilon = 1, delta = 1e-3, bounds = c(-3, 5))
  set.seed(5); b2 <- noisy_gibbs(x, family = "gaussian", sigma = 0.5, epsilon = 1, delta = 1e-3, bounds = c(-3, 5))
  expect_identical(a$draws, b2$draws)
  expect_error(noisy_gibbs(x, loss = "gaussian", family = "exponential", sigma = 0.5, epsilon = 1,
                           delta = 1e-3, bounds = c(-3, 5)), "'family'")
  expect_error(noisy_gibbs(x, loss = "poisson", epsilon = 1, delta = 1e-3, bounds = c(0, 1)), "'loss'")
  expect_error(noisy_gibbs(y ~ x, data = d, loss = "gaussian", epsilon = 1, bounds = b), "'x'")
  expect_error(noisy_gibbs(y ~ x, epsilon = 1, bounds = b), "'data'")
  expect_error(noisy_gibbs(x, loss = "gaussian", sigma = 0.5, epsilon = 1, delta = 1e-3,
                           bounds = c(-3, 5), iters = 10), "unknown argument 'iters'")
})
