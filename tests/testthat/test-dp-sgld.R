# DP-SGLD baseline (R/dp-sgld.R, src/core/dp_sgld.h).

sgld_data <- function(n, seed) {
  set.seed(seed)
  d <- data.frame(x = runif(n, 0, 10))
  d$y <- 1 + 0.3 * d$x + rnorm(n)
  d
}
sgld_bounds <- list(x = c(0, 10), .response = c(-5, 10))

test_that("the noise reproduces the target epsilon through the independent accountant", {
  d <- sgld_data(1000, 1)
  eps <- 2; T <- 300; q <- 0.05; taus <- c(0.2, 0.5, 0.9)
  fit <- dp_sgld(y ~ x, d, tau = taus, epsilon = eps, bounds = sgld_bounds, iterations = T,
                 rate = q, progress = FALSE)
  C <- fit$details$clip
  sig <- fit$details$sigma
  # Per-level clip = max(tau, 1 - tau) sqrt(p) on the unit-box design (SM S3.3).
  expect_equal(unname(C), pmax(taus, 1 - taus) * sqrt(2))
  # Same noise multiplier at every level.
  expect_equal(unname(sig / C), rep(sig[1] / C[1], 3))
  # RDP composition over the levels: the sum of the per-level curves (each T releases at
  # its own (C_k, sigma_k)), converted once, is the certified epsilon, at most the target
  # and tight (bisection tolerance 1e-6).
  orders <- 2:256
  rdp <- Reduce(`+`, lapply(1:3, function(k)
    T * pgbb_rdp(orders, clip = C[k], sigma = sig[k], rate = q, accountant = "plain") / (orders - 1)))
  # delta is the default min(1e-6, 0.01 / n) = 1e-6 at n = 1000.
  e_sum <- rdp_epsilon(rdp, orders, delta = 1e-6)
  expect_lte(e_sum, eps)
  expect_gt(e_sum, eps * (1 - 1e-4))
  expect_equal(fit$ledger$epsilon, as.numeric(e_sum), tolerance = 1e-10)
  # The sum is exact: it equals 3T releases of one curve (the bound depends on sigma / C).
  e_one <- pgbb_epsilon(sig[1] / C[1], 1e-6, clip = 1, rate = q, iterations = 3 * T,
                        accountant = "plain")
  expect_equal(as.numeric(e_sum), as.numeric(e_one), tolerance = 1e-10)
  # Joint RDP accounting needs less noise than splitting epsilon by basic composition.
  z_split <- pgbb_sigma(eps / 3, 1e-6 / 3, clip = 1, rate = q, iterations = T, accountant = "plain")
  expect_lt(sig[1] / C[1], as.numeric(z_split))
})

test_that("a single level uses the plain accountant with sensitivity C; omega and n do not enter", {
  d <- sgld_data(800, 2)
  f1 <- dp_sgld(y ~ x, d, loss = "huber", epsilon = 1, bounds = sgld_bounds, iterations = 200,
                rate = 0.1, progress = FALSE)
  ch <- sqrt(1.345^2 * 2 + ((1.345^2 + 0.71) / 2)^2)  # C_H of SM S3.2, ||x|| <= sqrt(2)
  expect_equal(unname(f1$details$clip), ch)
  s <- pgbb_sigma(1, 1e-6, clip = ch, rate = 0.1, iterations = 200, accountant = "plain")  # default delta
  expect_equal(unname(f1$details$sigma), as.numeric(s), tolerance = 1e-6)
  f2 <- dp_sgld(y ~ x, d, loss = "huber", epsilon = 1, delta = 1e-6, bounds = sgld_bounds,
                iterations = 200, rate = 0.1, omega = 0.1, step = 1e-4, progress = FALSE)
  expect_equal(f2$details$sigma, f1$details$sigma)
  expect_lte(f1$ledger$epsilon, 1)
})

test_that("non-private DP-SGLD matches the tempered Gibbs posterior of a Gaussian mean", {
  # l = (y - mu)^2 / (2 s^2), flat prior: the omega-tempered Gibbs posterior is
  # N(ybar, s^2 / (n omega)). Full batch (rate = 1), no clipping, no privacy noise.
  set.seed(3)
  n <- 200; s <- 0.5
  d <- data.frame(y = rnorm(n, 1.5, s))
  omegas <- if (identical(Sys.getenv("PGBB_SLOW_TESTS"), "true")) c(1, 0.25) else 1
  for (omega in omegas) {
    prec <- n * omega / s^2
    fit <- dp_sgld(y ~ 1, d, loss = "mean", epsilon = Inf, bounds = list(.response = c(-5, 5)),
                   scale = s, omega = omega, iterations = 40000, rate = 1, step = 1 / prec,
                   progress = FALSE)
    dr <- fit$draws[, "mean"]
    ess <- fit$ess[1, 1]
    expect_gt(ess, 150)
    sd_true <- 1 / sqrt(prec)
    # Tolerances: the step eta_t = t^(-1/3) / prec gives the Euler chain the stationary
    # variance (1 / prec) 2 / (2 - a), a = eta_t prec <= 0.047 after burn-in, i.e. an SD
    # bias below 1.2%. Monte Carlo error: sd(mean) = SD / sqrt(ESS) (4 of them), and the
    # relative error of the SD is about 1 / sqrt(2 ESS) (4 of them, ~0.23 at ESS 150).
    expect_lt(abs(mean(dr) - mean(d$y)), 4 * sd_true / sqrt(ess))
    expect_lt(abs(sd(dr) / sd_true - 1), 0.012 + 4 / sqrt(2 * ess))
  }
})

test_that("DP-SGLD recovers the truth at epsilon = 64 on easy data", {
  d <- sgld_data(4000, 4)
  fit <- dp_sgld(y ~ x, d, loss = "huber", epsilon = 64, bounds = sgld_bounds, iterations = 3000,
                 rate = 0.05, progress = FALSE)
  est <- coef(fit)
  sdv <- apply(fit$draws, 2, sd)
  # Well specified (normal errors: the Huber fit targets the same line, scale ~ sd);
  # the error is within a few posterior sds and small in absolute terms.
  expect_lt(abs(est[["(Intercept)"]] - 1), max(4 * sdv[["(Intercept)"]], 0.15))
  expect_lt(abs(est[["x"]] - 0.3), max(4 * sdv[["x"]], 0.03))
  expect_lt(abs(est[["x"]] - 0.3), 0.05)
  q <- dp_sgld(y ~ x, d, tau = c(0.25, 0.75), epsilon = 64, bounds = sgld_bounds,
               iterations = 3000, rate = 0.05, progress = FALSE)
  cf <- coef(q)
  expect_equal(dim(cf), c(2L, 2L))
  expect_equal(colnames(cf), c("0.25", "0.75"))
  # True conditional quantiles: 1 + qnorm(tau) + 0.3 x.
  expect_lt(max(abs(cf["x", ] - 0.3)), 0.05)
  expect_lt(max(abs(cf["(Intercept)", ] - (1 + qnorm(c(0.25, 0.75))))), 0.35)
  ci <- confint(q)
  expect_equal(dim(ci), c(2L, 2L, 2L))
  expect_true(all(ci[, 1, ] < ci[, 2, ]))
})

test_that("methods: print, summary, as.data.frame and pgbb-shaped coef/confint", {
  d <- sgld_data(500, 5)
  fit <- dp_sgld(y ~ x, transform(d, y = as.numeric(y > 2.5)), loss = "logistic", epsilon = 2,
                 bounds = list(x = c(0, 10)), iterations = 400, rate = 0.1, progress = FALSE)
  expect_s3_class(fit, c("dp_sgld", "private_posterior"))
  expect_output(print(fit), "Privacy ledger: DP-SGLD")
  expect_output(print(summary(fit)), "ESS")
  df <- as.data.frame(fit)
  expect_named(df, c("method", "term", "tau", "estimate", "sd", "lower", "upper", "ess"))
  expect_true(all(is.na(df$tau)))
  expect_equal(names(coef(fit)), c("(Intercept)", "x"))
  expect_equal(dim(confint(fit, level = 0.9)), c(2L, 2L))
  expect_equal(rownames(confint(fit, "x")), "x")
})

test_that("set.seed reproduces a fit; another seed changes it", {
  d <- sgld_data(300, 6)
  run <- function(s) {
    set.seed(s)
    dp_sgld(y ~ x, d, tau = c(0.3, 0.6), epsilon = 1, bounds = sgld_bounds, iterations = 300,
            rate = 0.1, progress = FALSE)$draw_array
  }
  expect_identical(run(1), run(1))
  expect_false(identical(run(1), run(2)))
})

test_that("out-of-bounds data are clipped with an analyst-only message", {
  d <- sgld_data(300, 7)
  d$x[1] <- 12
  expect_message(dp_sgld(y ~ x, d, epsilon = 1, bounds = sgld_bounds, iterations = 50,
                         progress = FALSE), "not part of the private release")
})

test_that("bad input errors name the argument", {
  d <- sgld_data(100, 8)
  b <- sgld_bounds
  expect_error(dp_sgld(y ~ x, d, bounds = b), "'epsilon'")
  expect_error(dp_sgld(y ~ x, d, epsilon = -1, bounds = b), "'epsilon'")
  expect_error(dp_sgld(y ~ x, d, epsilon = 1), "'bounds'")
  expect_error(dp_sgld(y ~ x, d, epsilon = 1, bounds = b, rate = 1), "'rate'")
  expect_error(dp_sgld(y ~ x, d, epsilon = 1, bounds = b, omega = 0), "'omega'")
  expect_error(dp_sgld(y ~ x, d, epsilon = 1, bounds = b, iterations = 1), "'iterations'")
  expect_error(dp_sgld(y ~ x, d, epsilon = 1, bounds = b, iterations = 10, burn_in = 10), "'burn_in'")
  expect_error(dp_sgld(y ~ x, d, epsilon = 1, bounds = b, step = 0), "'step'")
  expect_error(dp_sgld(y ~ x, d, epsilon = 1, bounds = b, clip = -1), "'clip'")
  expect_error(dp_sgld(y ~ x, d, epsilon = 1, bounds = b, tau = 1.5), "'tau'")
  expect_error(dp_sgld(y ~ x, d, epsilon = 1, bounds = b, loss = "lasso"), "'loss'")
  expect_error(dp_sgld(y ~ x, d, loss = "mean", epsilon = 1, bounds = b), "'formula'")
  expect_error(dp_sgld(y ~ x, d, epsilon = 1, bounds = b, bogus = 1), "'bogus'")
  expect_error(dp_sgld(y ~ x, d, epsilon = 1, bounds = list(x = c(0, 10))), "response")
})

test_that("an empirical audit of a tiny DP-SGLD release stays below the claim", {
  # Neighbouring data sets: a canary moved from the centre to a public bound.
  n <- 20
  d0 <- data.frame(y = rep(0, n))
  d1 <- d0; d1$y[n] <- 5
  eps <- 1
  mech <- function(d) dp_sgld(y ~ 1, d, loss = "mean", epsilon = eps, delta = 1e-3,
                              bounds = list(.response = c(-5, 5)), iterations = 20, burn_in = 19,
                              rate = 0.5, clip = 1, orders = 2:64, progress = FALSE)$draws[1, 1]
  # The accountant runs inside every call; orders 2:64 keep it cheap (a coarser grid
  # only certifies a larger noise, so the claim stays valid).
  runs <- if (identical(Sys.getenv("PGBB_SLOW_TESTS"), "true")) 600 else 100
  a <- audit_privacy(mech, d1, d0, runs = runs, delta = 1e-3, claimed = eps, seed = 9)
  expect_lt(a$epsilon_lower, eps)
})

test_that("the ESS estimator matches known autocorrelation times", {
  set.seed(12)
  n <- 20000
  # iid: ESS ~ n; its sampling error is a few percent at this length.
  expect_equal(pgbb:::.ess_geyer(rnorm(n)) / n, 1, tolerance = 0.1)
  # AR(1), phi = 0.9: integrated autocorrelation time (1 + phi) / (1 - phi) = 19.
  x <- as.numeric(stats::filter(rnorm(n), 0.9, method = "recursive"))
  expect_equal(pgbb:::.ess_geyer(x) / (n / 19), 1, tolerance = 0.25)
  expect_equal(pgbb:::.ess_geyer(rep(1, 10)), 10)
  # ...but a sampler's chain that never moved has not mixed: one effective draw,
  # so the mixing checks of dp_sgld() and noisy_gibbs() warn about it.
  expect_equal(pgbb:::.chain_ess(rep(1, 10)), 1)
  expect_equal(pgbb:::.chain_ess(x), pgbb:::.ess_geyer(x))
  stuck <- matrix(c(pgbb:::.chain_ess(rep(0.5, 500)), 480), 2, 1, dimnames = list(c("a", "b"), "estimate"))
  expect_warning(pgbb:::.sgld_warn_mixing(stuck, 500), "only 1 effective draws .* for a", class = "pgbb_low_ess")
})

test_that("dp_sgld() rejects weights, offset() terms and misspelt settings, and evaluates subset in the data", {
  set.seed(107)
  d <- data.frame(x = runif(200), z = runif(200))
  d$y <- 1 + d$x + rnorm(200)
  b <- list(x = c(0, 1), z = c(0, 1), .response = c(-5, 5))
  run <- function(...) dp_sgld(y ~ x, d, tau = 0.5, epsilon = Inf, bounds = b, iterations = 20, ...)
  # weights = z used to fail with "object 'z' not found" (list(...) evaluated it).
  expect_error(run(weights = z), "dp_sgld\\(\\) does not support case weights")
  expect_error(dp_sgld(y ~ x + offset(z), d, tau = 0.5, epsilon = Inf, bounds = b, iterations = 20),
               "offset\\(\\) term, which dp_sgld\\(\\) does not support")
  expect_error(run(bandwith = 0.2), "'bandwith' \\(did you mean 'bandwidth'\\?\\)")
  expect_error(run(iteratons = 5), "'iteratons' \\(did you mean 'iterations'\\?\\)")
  # `subset` refers to a column of `data`; no `x` exists where dp_sgld() is called.
  e <- new.env(parent = globalenv())
  e$d <- d; e$b <- b
  fit <- eval(quote(dp_sgld(y ~ x, d, tau = 0.5, epsilon = Inf, bounds = b, iterations = 20,
                            subset = x > 0.5)), e)
  expect_equal(fit$n, sum(d$x > 0.5))
})

test_that("dp_sgld() labels each tau by its own chain whatever the order of 'tau'", {
  set.seed(110)
  d <- data.frame(x = runif(300))
  d$y <- 1 + d$x + rnorm(300)
  b <- list(x = c(0, 1), .response = c(-5, 6))
  fit <- function(tau) {
    set.seed(7)
    dp_sgld(y ~ x, d, tau = tau, epsilon = Inf, bounds = b, iterations = 400, rate = 0.2)
  }
  up <- fit(c(0.1, 0.9)); down <- fit(c(0.9, 0.1))
  one_lo <- fit(0.1); one_hi <- fit(0.9)
  # The first level of each fit runs the same chain as the single-level fit.
  expect_equal(up$draw_array[, , "0.1"], one_lo$draw_array[, , 1])
  expect_equal(down$draw_array[, , "0.9"], one_hi$draw_array[, , 1])
  expect_equal(colnames(coef(down)), c("0.9", "0.1"))
  expect_gt(coef(down)["(Intercept)", "0.9"], coef(down)["(Intercept)", "0.1"] + 1)
  expect_gt(coef(up)["(Intercept)", "0.9"], coef(up)["(Intercept)", "0.1"] + 1)
  expect_equal(as.data.frame(down)$tau, rep(c(0.9, 0.1), each = 2))
})

test_that("dp_sgld() refuses a delta its accountant cannot certify at a usable noise", {
  set.seed(113)
  d <- data.frame(x = runif(200))
  d$y <- 1 + d$x + rnorm(200)
  # delta = 1e-300 gave a noise multiplier of ~4e94 and coefficients of order 1e95.
  expect_error(dp_sgld(y ~ x, d, tau = 0.5, epsilon = 1, delta = 1e-300,
                       bounds = list(x = c(0, 1), .response = c(-5, 5)), iterations = 20),
               "^'delta' must be large enough .*noise multiplier sigma/C would be")
})

test_that("a chain that has not mixed says so (the ESS was only reported)", {
  set.seed(61)
  d <- data.frame(x = runif(500)); d$y <- 1000 * (3 + 0.3 * d$x + rnorm(500, sd = 0.5))
  # A response in grams-like units: the tempered posterior and the step are in its
  # units, and this chain keeps an ESS of a few draws.
  expect_warning(f <- dp_sgld(y ~ x, d, loss = "quantile", epsilon = 2, iterations = 2000, rate = 0.05,
                              bounds = list(x = c(0, 1), .response = c(0, 8000)), progress = FALSE),
                 class = "pgbb_low_ess")
  expect_lt(min(f$ess), 100)
  d$y <- d$y / 1000
  g <- dp_sgld(y ~ x, d, loss = "quantile", epsilon = 2, iterations = 2000, rate = 0.05,
               bounds = list(x = c(0, 1), .response = c(0, 8)), progress = FALSE)
  expect_gte(min(g$ess), 100)
})

test_that("a non-private chain's ledger shows no budget and no sensitivity", {
  # It printed "budget: epsilon = Inf, delta = 1e-06" and "sensitivity: all = Inf",
  # the terms of a guarantee the chain does not have.
  set.seed(12)
  d <- data.frame(x = runif(200), y = rnorm(200))
  b <- list(x = c(0, 1), .response = c(-4, 4))
  free <- dp_sgld(y ~ x, d, loss = "huber", epsilon = Inf, bounds = b, iterations = 200, progress = FALSE)
  out <- paste(capture.output(print(free)), collapse = "\n")
  expect_match(out, "budget: none (epsilon = Inf: a non-private fit)", fixed = TRUE)
  expect_match(out, "sensitivity: all = none (not clipped)", fixed = TRUE)
  expect_no_match(out, "delta =|sensitivity: all = Inf")
  priv <- suppressWarnings(dp_sgld(y ~ x, d, loss = "huber", epsilon = 1, delta = 1e-4, bounds = b,
                                   iterations = 200, progress = FALSE))
  out <- paste(capture.output(print(priv)), collapse = "\n")
  expect_match(out, "budget: epsilon = 1, delta = 1e-04", fixed = TRUE)
  expect_match(out, sprintf("sensitivity: all = %s", format(signif(priv$ledger$sensitivity[[1]], 4))), fixed = TRUE)
})

test_that("dp_sgld(loss = 'mean') releases draws, estimate and intervals within the response's bounds", {
  # A share at n = 500, eps = 0.5: the chain wanders far beyond [0, 1] (asserted
  # on the chain's own draws below, so the test can fail), while the mean it
  # estimates lies in [0, 1].
  set.seed(41)
  d <- data.frame(y = rbinom(500, 1, 0.06))
  set.seed(42)
  f <- suppressWarnings(dp_sgld(y ~ 1, d, loss = "mean", epsilon = 0.5, bounds = list(.response = c(0, 1)),
                                iterations = 4000, progress = FALSE))
  expect_true(all(as.matrix(f) >= 0 & as.matrix(f) <= 1))
  expect_true(coef(f) >= 0 && coef(f) <= 1)
  ci <- confint(f)
  expect_true(ci[1, 1] >= 0 && ci[1, 2] <= 1)
  expect_true(all(posterior_draws(f) >= 0 & posterior_draws(f) <= 1))
  s <- as.data.frame(f)
  expect_true(s$lower >= 0 && s$upper <= 1)
  expect_identical(f$range, matrix(c(0, 1), 1, 2, dimnames = list("mean", c("lower", "upper"))))
  # The same seed without the move: the chain itself leaves the bounds, the
  # released draws are its draws moved to the nearest bound, and the estimate
  # is the chain's mean moved likewise (not the mean of the moved draws).
  set.seed(42)
  chain <- with_pgbb_binding(".location_release", function(draws, bounds, terms) NULL,
    suppressWarnings(dp_sgld(y ~ 1, d, loss = "mean", epsilon = 0.5, bounds = list(.response = c(0, 1)),
                             iterations = 4000, progress = FALSE)))
  expect_gt(mean(as.matrix(chain) < 0 | as.matrix(chain) > 1), 0.5)
  expect_identical(as.matrix(f), pmin(pmax(as.matrix(chain), 0), 1))
  expect_identical(coef(f), pmin(pmax(coef(chain), 0), 1))
  expect_true(coef(f) != mean(as.matrix(f)))
})

test_that("dp_sgld() keeps the intercept of an intercept-only quantile fit within the bounds, and only it", {
  set.seed(22)
  d <- data.frame(y = c(rep(0, 400), runif(100)), x = runif(500))
  b <- list(.response = c(0, 1), x = c(0, 1))
  set.seed(23)
  f <- suppressWarnings(dp_sgld(y ~ 1, d, tau = c(0.5, 0.9), epsilon = 0.3, bounds = b, iterations = 3000,
                                progress = FALSE))
  set.seed(23)
  chain <- with_pgbb_binding(".location_release", function(draws, bounds, terms) NULL,
    suppressWarnings(dp_sgld(y ~ 1, d, tau = c(0.5, 0.9), epsilon = 0.3, bounds = b, iterations = 3000,
                             progress = FALSE)))
  expect_true(any(as.matrix(chain) < 0))
  expect_identical(as.matrix(f), pmin(pmax(as.matrix(chain), 0), 1))
  expect_identical(coef(f), pmin(pmax(coef(chain), 0), 1))
  s <- suppressWarnings(dp_sgld(y ~ x, d, tau = 0.5, epsilon = 0.3, bounds = b, iterations = 500, progress = FALSE))
  expect_null(s$range)
})
