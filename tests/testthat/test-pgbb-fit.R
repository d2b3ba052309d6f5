# pgbb_fit(): arguments, public bounds, the ledger, reproducibility, saved
# fits, and the trained generator against the exact blocked bootstrap.

huber_data <- function(n, p = 3, seed = 1) {
  set.seed(seed)
  x <- matrix(runif(n * p, -1, 1), n, p)
  # Section 5.1: beta* = (1.5, -1.5, 1), sigma_eps = 0.5, Student-t(3) errors
  y <- drop(x %*% c(1.5, -1.5, 1)) + 0.5 * rt(n, 3)
  list(x = x, y = y, box = rbind(matrix(c(-10, 10), p, 2, byrow = TRUE), c(0.01, 10)))
}

small_fit <- function(d, sigma = 0, ...) {
  pgbb_fit(d$x, d$y, loss = "huber", sigma = sigma, box = d$box, x_bounds = c(-1, 1), blocks = 10,
           rate = 0.5, iterations = 200, hidden = c(8, 8), learning_rate = 3e-3, draws = 50,
           progress = FALSE, ...)
}

test_that("pgbb_fit() checks its arguments and names them", {
  d <- huber_data(200)
  f <- function(..., hidden = 4) pgbb_fit(d$x, d$y, loss = "huber", box = d$box, x_bounds = c(-1, 1),
                                           iterations = 10, hidden = hidden, progress = FALSE, ...)
  expect_error(f(), "exactly one of 'epsilon'")
  expect_error(f(sigma = 1, epsilon = 1), "exactly one of 'epsilon'")
  expect_error(f(sigma = -1), "'sigma'")
  expect_error(f(epsilon = -1), "'epsilon'")
  expect_error(f(sigma = 0, delta = 2), "'delta'")
  expect_error(f(sigma = 0, rate = 0), "'rate'")
  expect_error(f(sigma = 0, blocks = 1), "'blocks'")
  expect_error(f(sigma = 0, mc = 0), "'mc'")
  expect_error(f(sigma = 0, hidden = -2), "'hidden'")
  expect_error(f(sigma = 0, optimizer = "rmsprop"), "'optimizer'")
  expect_error(f(sigma = 0, clip = 0), "'clip'")
  expect_error(f(sigma = 0, tau = 0.5), "'tau'")
  expect_error(pgbb_fit(d$x, d$y, loss = "huber", sigma = 0, box = d$box, progress = FALSE), "'x_bounds'")
  expect_error(pgbb_fit(d$x, d$y, loss = "huber", sigma = 0, x_bounds = c(-1, 1), progress = FALSE), "'box'")
  expect_error(pgbb_fit(d$x, d$y, loss = "huber", sigma = 0, box = c(-10, 10), x_bounds = c(-1, 1),
                        progress = FALSE), "positive at its lower end")
  expect_error(pgbb_fit(d$x, d$y, loss = "huber", sigma = 0, box = d$box[-1, ], x_bounds = c(-1, 1),
                        progress = FALSE), "'box'")
  expect_error(pgbb_fit(d$x, d$y, loss = "probit", sigma = 0, box = d$box), "'loss'")
  expect_error(pgbb_fit(d$x, NULL, loss = "huber", sigma = 0, box = d$box, x_bounds = c(-1, 1)), "'y'")
  expect_error(pgbb_fit(d$x, d$y, loss = "logistic", sigma = 0, box = c(-5, 5), x_bounds = c(-1, 1)),
               "0 or 1")
  expect_error(pgbb_fit(d$x, d$y, loss = "squared", sigma = 0, box = c(-5, 5), x_bounds = c(-1, 1),
                        progress = FALSE), "'clip'")
  # A given partition is for non-private fits only.
  expect_error(f(sigma = 1, partition = block_partition(200, 20)), "'partition'")
  # No pseudo-samples in the trainer, so none may be accounted for.
  expect_error(f(sigma = 0, alpha = 1), "'alpha'")
  # Misspelt settings are not silently swallowed by '...'.
  expect_error(f(sigma = 0, lerning_rate = 1), "unused argument")
})

test_that("the stored call never contains the data, even through do.call()", {
  d <- huber_data(200)
  set.seed(4)
  fit <- do.call(pgbb_fit, list(x = d$x, y = d$y, loss = "huber", sigma = 0, box = d$box,
                                x_bounds = c(-1, 1), blocks = 5, iterations = 20, hidden = 4,
                                draws = 5, progress = FALSE))
  expect_lt(length(serialize(fit$call, NULL)), 2000)
  expect_false(any(vapply(as.list(fit$call)[-1], function(a) is.numeric(a) && length(a) > 16, TRUE)))
})

test_that("data outside the declared bounds is clipped, reported, and not stored", {
  d <- huber_data(300)
  d$x[1:3, 1] <- c(5, -7, 2)
  set.seed(2)
  expect_message(fit <- small_fit(d), "3 value\\(s\\) of 'x' lay outside")
  # The same data with those values clipped beforehand gives the identical
  # released object: the fit depends on the data only through the clipped
  # values, and the (non-private) count is stored nowhere.
  d2 <- d
  d2$x[1:3, 1] <- c(1, -1, 1)
  set.seed(2)
  expect_silent(fit2 <- small_fit(d2))
  keep <- setdiff(names(fit), "call")
  expect_identical(unclass(fit)[keep], unclass(fit2)[keep])
  # y bounds work the same way
  set.seed(3)
  expect_message(small_fit(d2, y_bounds = c(-2, 2)), "of 'y' lay outside")
})

test_that("fits are bit-identical under set.seed(), differ otherwise, and survive saveRDS()", {
  d <- huber_data(300)
  set.seed(11)
  a <- small_fit(d)
  set.seed(11)
  b <- small_fit(d)
  expect_identical(a$generator$layers, b$generator$layers)
  expect_identical(a$draws, b$draws)
  set.seed(12)
  c2 <- small_fit(d)
  expect_false(identical(a$draws, c2$draws))
  # double precision training is deterministic too
  set.seed(11)
  a64 <- small_fit(d, precision = "double")
  set.seed(11)
  b64 <- small_fit(d, precision = "double")
  expect_identical(a64$draws, b64$draws)
  # Save, reload, draw: the same draws as from the original under the same seed.
  path <- tempfile(fileext = ".rds")
  saveRDS(a, path)
  a2 <- readRDS(path)
  set.seed(13)
  d1 <- posterior_draws(a, 100)
  set.seed(13)
  d2 <- posterior_draws(a2, 100)
  expect_identical(d1, d2)
  # ... also in a fresh R session, where only the file and the package exist.
  rscript <- file.path(R.home("bin"), "Rscript")
  out <- tempfile(fileext = ".rds")
  lib <- dirname(find.package("pgbb"))
  code <- sprintf(paste0("suppressPackageStartupMessages(library(pgbb, lib.loc = '%s')); ",
                         "f <- readRDS('%s'); set.seed(13); saveRDS(posterior_draws(f, 100), '%s')"),
                  lib, path, out)
  status <- system2(rscript, c("-e", shQuote(code)), stdout = FALSE, stderr = FALSE)
  expect_equal(status, 0)
  expect_identical(readRDS(out), d1)
})


test_that("tail averaging: off is the last iterate bit for bit, on changes the generator", {
  d <- huber_data(300)
  set.seed(11)
  a <- small_fit(d)
  set.seed(11)
  off <- small_fit(d, average_from = 1)
  expect_identical(off$generator$layers, a$generator$layers)
  expect_identical(off$draws, a$draws)
  expect_identical(off$training$average_from, 1)
  # Pinned output of this seed and these settings on x86-64: a change to the
  # trainer's arithmetic or to its random streams (e.g. the per-range subset
  # streams of trainer.h) shows here; update the numbers only for a deliberate one.
  if (identical(R.version$arch, "x86_64")) {
    expect_identical(sprintf("%.17g", sum(a$draws)), "82.888459099696291")
    expect_identical(sprintf("%.17g", a$draws[1, 1]), "1.6588898092242976")
  }
  for (from in c(0, 0.5)) {
    set.seed(11)
    on <- small_fit(d, average_from = from)
    expect_false(identical(on$generator$layers, a$generator$layers))
    expect_true(all(is.finite(on$draws)))
  }
  # The mean of the second half of the iterates is in the bulk of the posterior
  # too (from 0, the mean includes the first steps away from the box centre).
  expect_lt(max(abs(colMeans(on$draws) - colMeans(a$draws)) / apply(a$draws, 2, sd)), 1)
  # Private fits, several runs, and the pgbb_control() path.
  set.seed(12)
  p1 <- suppressWarnings(small_fit(d, sigma = 1, runs = 2, average_from = 0.5), classes = "pgbb_noise_dominates")
  expect_true(all(is.finite(p1$draws)))
  expect_identical(pgbb_control(average_from = 0.5)$average_from, 0.5)
  expect_error(small_fit(d, average_from = 1.5), "'average_from'")
  expect_error(pgbb_control(average_from = -1), "average_from")
})

test_that("the fit object has the documented pieces and methods", {
  d <- huber_data(300)
  set.seed(21)
  fit <- small_fit(d)
  expect_s3_class(fit, "pgbb_fit")
  expect_equal(dim(fit$draws), c(50L, 4L))
  expect_equal(colnames(fit$draws), c("x1", "x2", "x3", "scale"))
  L <- fit$ledger
  for (nm in c("epsilon", "delta", "sigma", "accountant", "conversion", "order", "iterations", "mc",
               "rate", "blocks", "gamma", "clip", "n", "alpha"))
    expect_true(nm %in% names(L), info = nm)
  expect_equal(L$sigma, 0)
  expect_equal(L$epsilon, Inf)
  expect_equal(L$delta, 1e-6)  # the default min(1e-6, 0.01 / n)
  expect_equal(L$n, 300L)
  expect_equal(L$gamma, gamma_star(300, 10))
  expect_equal(L$clip, sqrt(1.345^2 * 3 + ((1.345^2 + 0.71) / 2)^2))
  expect_equal(names(coef(fit)), colnames(fit$draws))
  expect_equal(dim(vcov(fit)), c(4L, 4L))
  ci <- confint(fit, level = 0.9)
  expect_equal(dim(ci), c(4L, 2L))
  expect_true(all(ci[, 1] <= ci[, 2]))
  expect_equal(dim(confint(fit, "x2")), c(1L, 2L))
  expect_equal(nobs(fit), 300L)
  s <- summary(fit)
  expect_equal(as.data.frame(s)$term, colnames(fit$draws))
  expect_output(print(fit), "Huber regression")
  expect_output(print(s), "credible")
  dr <- posterior_draws(fit, 500)
  expect_true(all(t(dr) >= fit$box[, 1] & t(dr) <= fit$box[, 2]))
  expect_error(posterior_draws(fit, 10, tau = 0.5), "'tau'")
  expect_length(fit$partition, 300L)
})

test_that("a private fit keeps no partition and records its noise in the ledger", {
  d <- huber_data(300)
  set.seed(23)
  fit <- suppressMessages(small_fit(d, sigma = 0.01))
  expect_null(fit$partition)
  expect_equal(fit$ledger$sigma, 0.01)
  if (exists("pgbb_epsilon", envir = asNamespace("pgbb"))) {
    expect_true(is.finite(fit$ledger$epsilon) && fit$ledger$epsilon > 0)
  } else {
    expect_true(is.na(fit$ledger$epsilon))
  }
  # nothing seed-like is stored (the seed would reveal the noise)
  expect_false(any(grepl("seed", names(unlist(unclass(fit)[setdiff(names(fit), "call")])))))
})

test_that("epsilon is turned into sigma by the accountant with the training settings", {
  skip_if_not(exists("pgbb_sigma", envir = asNamespace("pgbb")))
  d <- huber_data(1000)
  set.seed(24)
  fit <- pgbb_fit(d$x, d$y, loss = "huber", epsilon = 1, box = d$box, x_bounds = c(-1, 1),
                  blocks = 20, rate = 0.1, iterations = 300, mc = 2, hidden = c(8, 8), draws = 50,
                  progress = FALSE)
  L <- fit$ledger
  sig <- pgbb:::pgbb_sigma(epsilon = 1, delta = 1e-6, n = 1000, blocks = 20,
                           gamma = gamma_star(1000, 20), clip = L$clip, rate = 0.1, iterations = 300,
                           mc = 2, J = 32, m = 5, alpha = 0, accountant = "dirichlet",
                           conversion = "asoodeh")
  expect_equal(L$sigma, as.numeric(sig))
  expect_lte(L$epsilon, 1 * (1 + 1e-9))
  expect_true(is.finite(L$order))
  expect_equal(L$target_epsilon, 1)
})

test_that("joint quantile fits give draws at every level and between grid points", {
  set.seed(25)
  n <- 400
  x <- cbind(1, runif(n, -1, 1))
  y <- drop(x %*% c(1, 2)) + rnorm(n, sd = 0.5)
  taus <- c(0.1, 0.5, 0.9)
  fit <- pgbb_fit(x, y, loss = "quantile", tau = taus, sigma = 0, box = c(-10, 10),
                  x_bounds = c(-1, 1), blocks = 10, rate = 1, mc = 2, iterations = 300,
                  hidden = c(8, 8), learning_rate = 3e-3, draws = 40, progress = FALSE)
  expect_true(fit$joint)
  expect_equal(dim(fit$draws), c(40L, 2L, 3L))
  expect_equal(dim(coef(fit)), c(2L, 3L))
  expect_equal(dim(confint(fit)), c(2L, 2L, 3L))
  expect_equal(dim(vcov(fit)), c(2L, 2L, 3L))
  expect_equal(fit$tau_prob, (1 / (taus * (1 - taus))) / sum(1 / (taus * (1 - taus))))
  # the level-uniform bound of Algorithm 2
  expect_equal(fit$ledger$clip, 0.9 * sqrt(2))
  expect_equal(dim(posterior_draws(fit, 25, tau = 0.42)), c(25L, 2L))
  expect_equal(dim(posterior_draws(fit, 25, tau = c(0.2, 0.8))), c(25L, 2L, 2L))
  expect_error(posterior_draws(fit, 5, tau = 0.95), "trained range")
  expect_equal(nrow(summary(fit)$coefficients), 6L)
})

# level_noise = "scaled" (default): a draw at level tau is clipped at its own
# bound max(tau, 1 - tau) B and noised in proportion, so every release keeps
# the C / sigma the accountant was given (the core tests check the trainer
# scales both); "uniform" is Algorithm 2's level-uniform clip.
test_that("a joint fit's levels get their own clip and proportional noise, at the same sigma", {
  set.seed(26)
  n <- 400
  x <- cbind(1, runif(n, -1, 1))
  y <- drop(x %*% c(1, 2)) + rnorm(n, sd = 0.5)
  taus <- c(0.5, 0.1, 0.7)   # any order: the scales follow the sorted grid
  fit_with <- function(level_noise, epsilon = 2) {
    set.seed(7)
    pgbb_fit(x, y, loss = "quantile", tau = taus, epsilon = epsilon, box = c(-10, 10), x_bounds = c(-1, 1),
             blocks = 10, rate = 0.5, mc = 2, iterations = 60, hidden = c(8, 8), draws = 40,
             level_noise = level_noise, progress = FALSE)
  }
  scaled <- suppressWarnings(fit_with("scaled"))
  uniform <- suppressWarnings(fit_with("uniform"))
  expect_equal(scaled$ledger$clip, 0.9 * sqrt(2))
  expect_equal(unname(scaled$ledger$level_scale), c(0.9, 0.5, 0.7) / 0.9)
  expect_equal(names(scaled$ledger$level_scale), format(sort(taus)))
  expect_equal(unname(uniform$ledger$level_scale), rep(1, 3))
  # The same accounting: sigma and the certified epsilon do not move.
  expect_identical(scaled$ledger$sigma, uniform$ledger$sigma)
  expect_identical(scaled$ledger$epsilon, uniform$ledger$epsilon)
  expect_false(isTRUE(all.equal(scaled$draws, uniform$draws)))
  expect_match(paste(format(scaled$ledger), collapse = "\n"), "r = 1.000, 0.556, 0.778", fixed = TRUE)
  expect_false(any(grepl("at level tau", format(uniform$ledger))))
  # A user's clip below a level's own bound caps that level at the clip.
  capped <- pgbb_fit(x, y, loss = "quantile", tau = c(0.1, 0.5), sigma = 0, box = c(-10, 10),
                     x_bounds = c(-1, 1), clip = 0.8, iterations = 2, hidden = 4, draws = 2, progress = FALSE)
  expect_equal(unname(capped$ledger$level_scale), c(1, 0.5 * sqrt(2) / 0.8))
  expect_error(pgbb_fit(x, y, loss = "quantile", tau = taus, sigma = 0, box = c(-10, 10), x_bounds = c(-1, 1),
                        level_noise = "lower", progress = FALSE), "'level_noise'")
  expect_error(pgbb_control(level_noise = "x"), "'level_noise'")
})

test_that("mean and logistic fits run and respect their boxes", {
  set.seed(26)
  x <- rnorm(300, 1.5, 0.5)
  fit <- pgbb_fit(x, loss = "mean", sigma = 0, box = c(-5, 5), x_bounds = c(-5, 5), scale = 0.5,
                  blocks = 10, rate = 1, iterations = 300, hidden = 8, learning_rate = 3e-3,
                  draws = 50, progress = FALSE)
  expect_equal(fit$ledger$clip, 8)  # SM S3.2 default clip for the mean losses
  expect_equal(colnames(fit$draws), "mean")
  fe <- pgbb_fit(rexp(300, 0.5), loss = "exponential", sigma = 0, box = c(0.1, 12),
                 x_bounds = c(0, 12), blocks = 10, rate = 1, iterations = 200, hidden = 8,
                 draws = 50, progress = FALSE)
  expect_true(all(fe$draws > 0.1 & fe$draws < 12))
  z <- cbind(1, runif(300, -1, 1))
  yb <- rbinom(300, 1, plogis(drop(z %*% c(-0.5, 1))))
  fl <- pgbb_fit(z, yb, loss = "logistic", sigma = 0, box = c(-6, 6), x_bounds = c(-1, 1),
                 blocks = 10, rate = 1, iterations = 200, hidden = 8, draws = 50, progress = FALSE)
  expect_equal(fl$ledger$clip, sqrt(2))
})

# The generator against the exact blocked bootstrap on the same partition and
# at the same block weights u (so Monte Carlo error of the comparison itself is
# small): Huber regression, n = 2000, S = 20 (Section 5.1 data).
# Settings: non-private, rate q = 1, T = 3000, 3 x 64, Adam from 3e-3 to a floor
# of 0.1%, K = 1, about 1 s. The full batch isolates the generator's
# amortisation error: with q < 1 the Poisson-subsampling noise adds its own
# floor (Theorem 3.1, Pi_total), which is the method's and not a defect.
# The criteria are those of the issue: means within 0.1 posterior SD, SDs
# within 15%; measured: means within 0.04 SD, SDs within 1%.
test_that("the non-private Huber generator reproduces the exact blocked bootstrap", {
  d <- huber_data(2000, seed = 51)
  set.seed(52)
  fit <- pgbb_fit(d$x, d$y, loss = "huber", sigma = 0, box = d$box, x_bounds = c(-1, 1),
                  blocks = 20, rate = 1, iterations = 3000, hidden = c(64, 64, 64),
                  learning_rate = 3e-3, lr_floor = 0.001, draws = 10, progress = FALSE)
  U <- rblock_weights(2000, 20, fit$ledger$gamma)
  G <- eval_generator(fit$generator, fit$generator$layers, U, numeric(0))
  ex <- blocked_bootstrap(d$x, d$y, loss = "huber", draws = 2000, blocks = 20,
                          partition = fit$partition, u = U)
  sd_ex <- apply(ex$draws, 2, sd)
  expect_true(all(abs(colMeans(G) - colMeans(ex$draws)) < 0.1 * sd_ex))
  expect_true(all(abs(apply(G, 2, sd) / sd_ex - 1) < 0.15))
  # and the stored draws (fresh u) describe the same posterior: means within
  # 0.1 SD + 3 Monte Carlo SEs of a difference of two independent means.
  se <- sd_ex * sqrt(1 / 2000 + 1 / 10)
  expect_true(all(abs(colMeans(fit$draws) - colMeans(ex$draws)) < 0.1 * sd_ex + 3 * se))
})

# pgbb_control()'s default generator (2 x 32) where the map u -> theta*(u) is
# curved: logistic regression on 300 records, about 12% events, 10 blocks,
# non-private, full batch (rate 1), T = 4000, against the exact blocked
# bootstrap at the same u. Measured: 2 x 32 within 0.01 SD in the means, 1.5%
# in the SDs and 0.04 SD in the 2.5% / 97.5% quantiles; without a hidden layer
# the SDs are 9% short and a quantile is 0.44 SD off, so the last check fails
# for a generator with no hidden units and 0.2 SD separates the two.
test_that("the default 2 x 32 generator follows a curved blocked bootstrap that an affine one misses", {
  set.seed(7)
  n <- 300
  x <- cbind(1, matrix(runif(n * 2, -1, 1), n, 2))
  y <- rbinom(n, 1, plogis(-2 + 1.5 * x[, 2]))
  quantile_error <- function(hidden) {
    set.seed(8)
    fit <- pgbb_fit(x, y, loss = "logistic", sigma = 0, box = c(-10, 10),
                    x_bounds = cbind(c(1, -1, -1), c(1, 1, 1)), blocks = 10, rate = 1, iterations = 4000,
                    hidden = hidden, learning_rate = 3e-3, lr_floor = 0.001, draws = 10, progress = FALSE)
    U <- rblock_weights(2000, 10, fit$ledger$gamma)
    G <- eval_generator(fit$generator, fit$generator$layers, U, numeric(0))
    ex <- blocked_bootstrap(x, y, loss = "logistic", draws = 2000, blocks = 10, partition = fit$partition, u = U)$draws
    sd_ex <- apply(ex, 2, sd)
    q <- function(M) apply(M, 2, stats::quantile, c(0.025, 0.975))
    list(mean = abs(colMeans(G) - colMeans(ex)) / sd_ex, sd = apply(G, 2, sd) / sd_ex,
         q = max(abs(q(G) - q(ex)) / rep(sd_ex, each = 2)))
  }
  small <- quantile_error(pgbb_control()$hidden)
  expect_true(all(small$mean < 0.1))
  expect_true(all(abs(small$sd - 1) < 0.05))
  expect_lt(small$q, 0.2)
  expect_gt(quantile_error(integer(0))$q, 0.2)
})

# The schedule is an optimiser setting: with everything else and the seed
# fixed, only it changes the fit, and the fit records it.
test_that("pgbb_fit()'s learning-rate schedule reaches the optimiser and is recorded", {
  d <- huber_data(500, seed = 61)
  fit_with <- function(schedule, floor = 0.05) {
    set.seed(62)
    # 60 iterations do not settle (pgbb_unsettled); only the schedule is tested.
    withCallingHandlers(
      pgbb_fit(d$x, d$y, loss = "huber", sigma = 0, box = d$box, x_bounds = c(-1, 1), blocks = 5,
               rate = 0.5, iterations = 60, hidden = 8, draws = 10, lr_floor = floor,
               schedule = schedule, progress = FALSE),
      pgbb_unsettled = function(w) invokeRestart("muffleWarning"))
  }
  cos1 <- fit_with("cosine")
  harm <- fit_with("harmonic")
  expect_identical(cos1$training$schedule, "cosine")
  expect_identical(harm$training$schedule, "harmonic")
  expect_identical(fit_with("cosine")$draws, cos1$draws)
  expect_false(isTRUE(all.equal(harm$draws, cos1$draws)))
  expect_error(fit_with("linear"), "'schedule'")
  expect_error(fit_with("harmonic", floor = 0), "'lr_floor'.*harmonic")
})

# The same for a joint smoothed-quantile generator over the paper's grid, at
# every level. Settings: non-private, rate 1, K = 5 draws per iteration,
# T = 8000, 3 x 64, Adam from 1e-3 to a floor of 0.1%, uniform P_tau (so that
# every level gets the same training; the paper's default 1/(tau (1 - tau))
# gives the centre a ninth of the draws), about 5 s. Measured: means within
# 0.04 SD, SDs within 10% at every level and coefficient.
test_that("the joint smoothed-quantile generator reproduces the exact bootstrap at every level", {
  set.seed(53)
  n <- 2000
  x <- cbind(1, matrix(runif(n * 2, -1, 1), n, 2))
  y <- drop(x %*% c(1, 1.5, -1)) + 0.5 * rt(n, 3)
  taus <- c(0.1, 0.3, 0.5, 0.7, 0.9)
  fit <- pgbb_fit(x, y, loss = "quantile", tau = taus, tau_prob = rep(1, 5), sigma = 0,
                  box = c(-10, 10), x_bounds = c(-1, 1), blocks = 20, rate = 1, mc = 5,
                  iterations = 8000, hidden = c(64, 64, 64), learning_rate = 1e-3, lr_floor = 0.001,
                  draws = 10, progress = FALSE)
  U <- rblock_weights(1000, 20, fit$ledger$gamma)
  ex <- blocked_bootstrap(x, y, loss = "quantile", tau = taus, draws = 1000, blocks = 20,
                          partition = fit$partition, u = U)
  for (i in seq_along(taus)) {
    G <- eval_generator(fit$generator, fit$generator$layers, U, taus[i])
    E <- ex$draws[, , i]
    sd_ex <- apply(E, 2, sd)
    expect_true(all(abs(colMeans(G) - colMeans(E)) < 0.1 * sd_ex), info = paste("tau", taus[i]))
    expect_true(all(abs(apply(G, 2, sd) / sd_ex - 1) < 0.15), info = paste("tau", taus[i]))
  }
})

# Section 5.1 at epsilon = 1: n = 10000, Student-t(3) errors, the paper's
# settings (S = 20, gamma*, q = 0.1, T = 10000, K = 1, 3 x 256, Adam 5e-4).
# Over R replicates, the 95% intervals of the 3 coefficients should cover the
# true beta most of the time: the paper reports coverage near 0.95; with
# 3R = 15 intervals we require at least 11 (a binomial(15, 0.95) falls below
# 11 with probability 6e-4, and an interval procedure at 0.75 passes with
# probability 0.31, so a badly miscalibrated fit fails most runs).
test_that("private Huber fits at epsilon = 1 cover the true coefficients", {
  skip_if_not_slow()
  skip_if_not(exists("pgbb_sigma", envir = asNamespace("pgbb")))
  beta <- c(1.5, -1.5, 1)
  covered <- 0
  R <- 5
  for (r in seq_len(R)) {
    d <- huber_data(10000, seed = 100 + r)
    set.seed(200 + r)
    fit <- pgbb_fit(d$x, d$y, loss = "huber", epsilon = 1, box = d$box, x_bounds = c(-1, 1),
                    progress = FALSE)
    ci <- confint(fit)[1:3, ]
    covered <- covered + sum(ci[, 1] <= beta & beta <= ci[, 2])
  }
  expect_gte(covered, 11)
})

test_that("the share of draws in the box's shoulders is computed exactly", {
  # Box [0, 10] (shoulders below 0.5 and above 9.5) and a log-scale coordinate on
  # [0.01, 100] (log width 9.21, shoulders within 0.4605 of log 0.01 and log 100).
  box <- cbind(lower = c(0, 0.01), upper = c(10, 100))
  rownames(box) <- c("a", "s")
  draws <- cbind(a = c(0.4, 0.6, 5, 9.4, 9.6), s = c(0.0101, 0.02, 1, 50, 99))
  share <- pgbb:::.box_shoulder_share(draws, box, c(FALSE, TRUE))
  # a: 0.4 and 9.6 are in the shoulders; s: 0.0101 (log gap 0.0100) and 99
  # (log gap 0.0101) are, 0.02 (log gap 0.69) and 50 (log gap 0.69) are not.
  expect_equal(unname(share[, 1]), c(2 / 5, 2 / 5))
  # Three levels: each level is counted on its own.
  arr <- array(c(rep(5, 4), rep(0.1, 4), c(5, 5, 5, 9.99)), c(4, 1, 3))
  s3 <- pgbb:::.box_shoulder_share(arr, box[1, , drop = FALSE], FALSE)
  expect_equal(as.vector(s3), c(0, 1, 0.25))
  expect_false(pgbb:::.warn_box_shoulders(matrix(0.01, 2, 1, dimnames = list(c("a", "s"), NULL))))
  expect_warning(pgbb:::.warn_box_shoulders(matrix(c(0, 0.02), 2, 1, dimnames = list(c("a", "s"), NULL))),
                 "2% of the posterior draws of 's'")
})

test_that("a box whose face cuts the posterior gives a warning, a generous box none", {
  d <- huber_data(300)
  set.seed(4)
  expect_silent(ok <- small_fit(d))
  expect_true(all(ok$box_share == 0))
  # The slope of x1 is about 1.5: a box [1.45, 3] for it puts its lower face
  # inside the posterior, so a large share of the draws is squashed there.
  d$box[1, ] <- c(1.45, 3)
  set.seed(4)
  expect_warning(bad <- pgbb_fit(d$x, d$y, loss = "huber", sigma = 0, box = d$box, x_bounds = c(-1, 1),
                                 blocks = 10, rate = 0.5, iterations = 500, hidden = c(8, 8),
                                 learning_rate = 3e-3, draws = 500, progress = FALSE),
                 "posterior draws of 'x1' lie in the outer 5% of the parameter box")
  expect_gt(bad$box_share["x1", 1], 0.1)
  expect_equal(unname(bad$box_share[c("x2", "x3"), 1]), c(0, 0))
})

test_that("a joint quantile generator carries a hat basis on its public grid unless tau_basis = 'smooth'", {
  set.seed(41)
  n <- 400
  x <- matrix(runif(n), n, 1, dimnames = list(NULL, "x"))
  y <- 1 + x[, 1] + rnorm(n)
  taus <- c(0.75, 0.25, 0.5)
  fit_args <- list(x = cbind(`(Intercept)` = 1, x), y = y, loss = "quantile", tau = taus, sigma = 0,
                   box = cbind(c(-10, -10), c(10, 10)), blocks = 5, iterations = 60, hidden = c(8),
                   draws = 50, x_bounds = cbind(c(1, 0), c(1, 1)), y_bounds = c(-10, 10))
  g <- do.call(pgbb_fit, fit_args)$generator
  expect_identical(g$tau_knots, sort(taus))
  expect_true(g$level_products)
  expect_identical(g$n_in, 5L + 5L * 3L + 2L + 3L)   # u, u x hats, (tau, qnorm(tau)), hats
  expect_identical(g$n_direct, 5L)
  a <- do.call(pgbb_fit, c(fit_args, level_interactions = FALSE))$generator
  expect_false(a$level_products)
  expect_identical(a$n_in, 5L + 2L + 3L)
  expect_error(do.call(pgbb_fit, c(fit_args, level_interactions = NA)), "'level_interactions'")
  s <- do.call(pgbb_fit, c(fit_args, tau_basis = "smooth"))$generator
  expect_length(s$tau_knots, 0L)
  expect_false(s$level_products)                      # the products are with the hats
  expect_identical(s$n_in, 5L + 2L)
  expect_error(do.call(pgbb_fit, c(fit_args, tau_basis = "hats")), "'tau_basis'")
  expect_identical(pgbb_control(tau_basis = "smooth")$tau_basis, "smooth")
})

# Figure 4's Exponential cell at n = 500, eps = 1 with SM S3.2's settings. With
# the mean-scale score and the exact shoulder slope, 13 of these 20 seeded fits
# ended at the upper face of the box (mean about 12, MAE 6.7); with the
# log-scale score alone 4 did; with it and the straight-through backward pass
# none (losses.h kLogScore, box.h through_slope()). The tolerance: the
# estimate's sd here is about 0.5 (privacy noise and sampling), so a fit
# beyond 6 is 8 sd off: a collapse, not noise.
test_that("Exponential mean fits at n = 500 do not collapse to the face of the box", {
  old <- options(pgbb.seeded_noise = TRUE)
  on.exit(options(old))
  est <- vapply(1:20, function(r) {
    set.seed(1000 + r)
    x <- pmin(rexp(500, 0.5), 12)
    f <- pgbb_fit(x, loss = "exponential", epsilon = 1, delta = 1 / 500, box = c(0.1, 12),
                  x_bounds = c(0, 12), blocks = 20, gamma = 1, rate = 0.2, iterations = 2000,
                  mc = 1, hidden = c(256, 256, 256), J = 30, clip = 8, draws = 500, progress = FALSE)
    mean(f$draws)
  }, 1)
  expect_equal(sum(est > 6), 0)
  expect_lt(mean(abs(est - 2)), 0.8)  # 0.41 measured; 2.3 with the exact slope
})

# The spread of a joint generator's draws at each level against the exact
# blocked bootstrap on the same partition (non-private, so the draws should
# reproduce it), on data whose slope's sampling error differs between levels.
# Measured over five seeds, mean |log(sd ratio)| over the two coefficients and
# three levels: 0.04-0.12 with the products of the block weights and the hats,
# 0.23-0.34 without them (there the last hidden layer's ReLUs end up inactive and
# the spread is too small, most at the tails); 0.18 separates the two.
test_that("each level of a joint quantile generator gets the blocked bootstrap's own spread", {
  old <- options(pgbb.seeded_noise = TRUE)
  on.exit(options(old))
  set.seed(1)
  n <- 4000
  x <- runif(n)
  y <- 1 + x + (0.2 + 2 * x) * rnorm(n)
  X <- cbind(`(Intercept)` = 1, x = x)
  taus <- c(0.1, 0.5, 0.9)
  spread_error <- function(products) {
    set.seed(101)
    f <- pgbb_fit(X, y, loss = "quantile", tau = taus, sigma = 0, box = cbind(c(-10, -10), c(10, 10)),
                  blocks = 20, iterations = 3000, hidden = c(256, 256, 256), mc = 5, rate = 0.1,
                  learning_rate = 2e-3, draws = 2000, x_bounds = cbind(c(1, 0), c(1, 1)),
                  y_bounds = c(-10, 10), level_interactions = products, progress = FALSE)
    bb <- blocked_bootstrap(X, y, loss = "quantile", tau = taus, blocks = 20, partition = f$partition,
                            draws = 1000)
    mean(abs(log(apply(f$draws, c(2, 3), stats::sd) / apply(bb$draws, c(2, 3), stats::sd))))
  }
  expect_lt(spread_error(TRUE), 0.18)
  expect_gt(spread_error(FALSE), 0.18)
})

test_that("a budget whose noise swamps the most any data could contribute says so, from public settings", {
  set.seed(47)
  n <- 2000
  d <- data.frame(x = runif(n, -1, 1)); d$y <- 1 + 2 * d$x + rnorm(n)
  ctl <- pgbb_control(iterations = 200, hidden = c(8, 8), draws = 100)
  fit <- function(eps) pgbb(y ~ x, d, loss = "huber", epsilon = eps, bounds = list(x = c(-1, 1), .response = c(-6, 8)),
                            control = ctl, progress = FALSE)
  expect_warning(f <- suppressWarnings(fit(0.01), classes = "pgbb_noise_dominates"), class = "pgbb_uninformative")
  L <- f$ledger
  # An independent computation of the ratio: q C sqrt(T K) / sigma.
  expect_equal(L$signal_to_noise, L$rate * L$clip * sqrt(L$iterations * L$mc) / L$sigma)
  expect_lt(L$signal_to_noise, 1)
  g <- withCallingHandlers(fit(1), pgbb_uninformative = function(w) stop("warned at epsilon = 1"),
                           warning = function(w) invokeRestart("muffleWarning"))
  expect_gt(g$ledger$signal_to_noise, 1)
  expect_true(is.na(suppressWarnings(fit(Inf))$ledger$signal_to_noise))
})

test_that("a training stopped while its released gradients still pull one way says so", {
  # y ~ 0 + x with the slope far from the box's centre: at 600 iterations (120
  # per training) the five runs end near 8 against lm's 16.8 and their pooled
  # interval misses it; at 3,000 they settle. Measured at these settings
  # (seeds 1-3): |z| 57-58 at 600 iterations, 0.3-1.8 from 2,000 on; the
  # limit of 10 is far from both.
  set.seed(1)
  n <- 2000
  d <- data.frame(x = runif(n, 5, 8))
  d$y <- pmin(pmax(16.8 * d$x + rnorm(n, 0, 3), 80), 140)
  slope <- unname(coef(lm(y ~ 0 + x, d)))
  fit <- function(its) {
    set.seed(2)
    pgbb(y ~ 0 + x, data = d, bounds = list(x = c(5, 8), .response = c(80, 140)), epsilon = 1,
         control = pgbb_control(iterations = its, draws = 500), progress = FALSE)
  }
  w <- NULL
  short <- withCallingHandlers(fit(600), pgbb_unsettled = function(c) {
    w <<- c
    invokeRestart("muffleWarning")
  }, pgbb_noise_dominates = function(c) invokeRestart("muffleWarning"))
  expect_s3_class(w, "pgbb_unsettled")
  expect_match(conditionMessage(w), "had not settled for x:")
  z <- short$fit$stationarity
  expect_identical(dimnames(z), list(NULL, "x"))
  expect_lt(z[1, "x"], -10)                      # pulled upwards: the gradient is negative
  expect_true(slope > confint(short)[, 2])        # the interval the warning is about misses
  expect_output(print(short), "settled:   NO for x \\(standardised mean gradient up to 5")
  expect_output(print(summary(short)), "settled:   NO for x")
  settled <- withCallingHandlers(fit(3000), pgbb_unsettled = function(c) stop("warned after 3,000 iterations"),
                                 pgbb_noise_dominates = function(c) invokeRestart("muffleWarning"))
  expect_lt(abs(settled$fit$stationarity[1, "x"]), 10)
  expect_output(print(settled), "settled:   yes")
  expect_output(print(summary(settled$fit)), "settled:   yes")
  ci <- confint(settled)
  expect_true(ci[, 1] <= slope && slope <= ci[, 2])
})

test_that("the stationarity check reads every level and names the ones beyond its limit", {
  z <- matrix(c(0.5, -12, NA, 3, 11, 0), 3, 2, dimnames = list(c("0.1", "0.5", "0.9"), c("a", "b")))
  expect_warning(lab <- pgbb:::.warn_unsettled(z, 100), class = "pgbb_unsettled")
  expect_identical(lab, c("a (tau = 0.5)", "b (tau = 0.5)"))
  expect_silent(pgbb:::.warn_unsettled(z / 2, 100))   # everything within the limit
  expect_silent(pgbb:::.warn_unsettled(matrix(NA_real_, 1, 2, dimnames = list(NULL, c("a", "b"))), 100))
  # Sums over runs, divided by the root of the summed null variances, per level.
  tail <- list(list(sum = matrix(c(1, 4, 2, 8, 0, 0), 2, 3), variance = c(1, 4), count = c(5, 5)),
               list(sum = matrix(c(3, 0, 2, 0, 9, 9), 2, 3), variance = c(3, 12), count = c(5, 5)))
  z2 <- pgbb:::.tail_score_z(tail, c("a", "b"), c(0.3, 0.7))
  expect_equal(unname(z2), rbind(c(4, 4) / 2, c(4, 8) / 4))
  expect_identical(dimnames(z2), list(c("0.3", "0.7"), c("a", "b")))
  tail[[1]]$variance[2] <- tail[[2]]$variance[2] <- 0
  expect_true(all(is.na(pgbb:::.tail_score_z(tail, c("a", "b"), c(0.3, 0.7))[2, ])))
})

test_that("a joint fit's stationarity has one row per level and a non-private full-data fit none to test", {
  set.seed(5)
  n <- 1500
  d <- data.frame(x = runif(n, -1, 1))
  d$y <- 1 + 2 * d$x + rnorm(n)
  f <- quiet_noise(pgbb(y ~ x, d, loss = "quantile", tau = c(0.25, 0.75), epsilon = 2,
                        bounds = list(x = c(-1, 1), .response = c(-5, 8)),
                        control = pgbb_control(iterations = 1000, draws = 100), progress = FALSE))
  expect_identical(dimnames(f$fit$stationarity), list(c("0.25", "0.75"), c("(Intercept)", "x")))
  expect_true(all(is.finite(f$fit$stationarity)))
  h <- huber_data(500, seed = 6)
  g <- pgbb_fit(h$x, h$y, loss = "huber", sigma = 0, box = h$box, x_bounds = c(-1, 1), rate = 1,
                iterations = 200, hidden = c(8, 8), draws = 10, progress = FALSE)
  expect_true(all(is.na(g$stationarity)))
})
