# Noise-aware pooling of independent trainings (R/pooling.R).

# R per-run draw arrays [draw, parameter, level]: run r's draws are
# theta_hat + e_r + N(0, s_w^2) noise, the shape of a trained generator's draws.
fake_runs <- function(R, n, theta_hat, s_w, s_b) {
  lapply(seq_len(R), function(r) {
    e <- rnorm(length(theta_hat), sd = s_b)
    a <- array(rnorm(n * length(theta_hat), sd = s_w), c(n, length(theta_hat), 1L),
               list(NULL, names(theta_hat), NULL))
    for (j in seq_along(theta_hat)) a[, j, 1L] <- a[, j, 1L] + theta_hat[j] + e[j]
    a
  })
}

test_that("pooled draws are centred at the mean of the run means with variance W + B / R", {
  set.seed(1)
  runs <- fake_runs(5, 20000, c(a = 1, b = -2), s_w = 0.5, s_b = 2)
  p <- pgbb:::.pool_runs(runs)
  m <- t(sapply(runs, function(a) colMeans(a[, , 1])))
  W <- colMeans(t(sapply(runs, function(a) apply(a[, , 1], 2, var))))
  B <- apply(m, 2, var)
  expect_equal(colMeans(p$draws[, , 1]), colMeans(m), tolerance = 0.05)
  v <- p$variability
  expect_equal(v$within^2, unname(W))
  expect_equal(v$between^2, unname(B))
  expect_equal(v$total^2, unname(W + B / 5))
  expect_equal(v$df, unname(4 * (1 + 5 * W / B)^2))
  # The draws' variance is W plus that of a t on df degrees of freedom scaled to B / R:
  # df / (df - 2) B / R. 20000 draws: the Monte Carlo error of a variance is about 2%.
  expect_equal(unname(apply(p$draws[, , 1], 2, var)), unname(W + B / 5 * v$df / (v$df - 2)),
               tolerance = 0.08)
  # One run: the draws are returned as they are, with no between-run term.
  one <- pgbb:::.pool_runs(runs[1])
  expect_identical(one$draws, runs[[1]])
  expect_true(all(is.na(one$variability$between)))
})

test_that("the pooled draws' mean is the pooled centre even when their t tails have no mean", {
  # Two runs with the between-run spread dominating: the Satterthwaite df is
  # about 1 (Cauchy tails). The draws' mean (what coef(), summary() and
  # predict() report) was the centre plus a Monte Carlo mean of those t draws,
  # which put estimates far outside their own intervals.
  for (seed in 1:20) for (n in c(50L, 51L)) {
    set.seed(seed)
    runs <- fake_runs(2, n, c(a = 1, b = -2), s_w = 0.01, s_b = 3)
    p <- pgbb:::.pool_runs(runs)
    expect_lt(max(p$variability$df), 1.5)
    mbar <- Reduce(`+`, lapply(runs, function(a) colMeans(a[, , 1])) ) / 2
    # Within-run deviations of the draws a run contributes average to about
    # s_w / sqrt(n / 2) = 0.002; the noise draws to exactly 0.
    expect_lt(max(abs(colMeans(p$draws[, , 1]) - mbar)), 0.02)
    ci <- apply(p$draws[, , 1], 2, stats::quantile, c(0.05, 0.95))
    expect_true(all(ci[1, ] <= mbar & mbar <= ci[2, ]))
  }
})

test_that("the pooled interval covers the estimand at its level whatever the noise share", {
  skip_if_not_slow()
  # theta_hat ~ N(theta, s_w^2) is the sampling error the within-run spread stands for;
  # each run adds its own noise error e_r ~ N(0, s_b^2). 400 replicates: the Monte
  # Carlo sd of a 0.95 coverage is 0.011, so [0.92, 0.98] is about 3 sd either way.
  set.seed(2)
  for (ratio in c(0.1, 1, 5)) {
    hit <- replicate(400, {
      theta_hat <- c(a = rnorm(1, sd = 1))
      p <- pgbb:::.pool_runs(fake_runs(5, 2000, theta_hat, s_w = 1, s_b = ratio))
      q <- quantile(p$draws[, 1, 1], c(0.025, 0.975))
      q[1] <= 0 && 0 <= q[2]
    })
    expect_gt(mean(hit), 0.92, label = sprintf("coverage at noise/sampling sd ratio %g", ratio))
    expect_lt(mean(hit), 0.985, label = sprintf("coverage at noise/sampling sd ratio %g", ratio))
  }
  # A single run ignores the noise error: at ratio 5 it covers far less often.
  hit1 <- replicate(400, {
    theta_hat <- rnorm(1)
    a <- fake_runs(1, 2000, c(a = theta_hat), s_w = 1, s_b = 5)[[1]]
    q <- quantile(a[, 1, 1], c(0.025, 0.975))
    q[1] <= 0 && 0 <= q[2]
  })
  expect_lt(mean(hit1), 0.6)
})

test_that("the noise warning names the coefficients whose between-run spread dominates", {
  set.seed(3)
  runs <- fake_runs(4, 500, c(slope = 1, other = 0), s_w = 1, s_b = 0)
  for (r in seq_along(runs)) runs[[r]][, 1, 1] <- runs[[r]][, 1, 1] + 10 * r   # only 'slope' is noisy
  v <- pgbb:::.pool_runs(runs)$variability
  expect_warning(pgbb:::.warn_noise_dominates(v), "dominates the uncertainty of slope: .* 4 independent")
  expect_no_warning(pgbb:::.warn_noise_dominates(v[v$term == "other", ]))
  expect_no_warning(pgbb:::.warn_noise_dominates(pgbb:::.pool_runs(runs[1])$variability))
  # A level is named by its label, the one every front end gives its draws.
  at <- lapply(runs, function(a) { dimnames(a)[[3L]] <- pgbb:::.tau_labels(0.1); a })
  msg <- tryCatch(pgbb:::.warn_noise_dominates(pgbb:::.pool_runs(at)$variability), warning = conditionMessage)
  expect_match(msg, "uncertainty of slope (tau = 0.1):", fixed = TRUE)
})

test_that("the noise warning of a non-private fit blames the optimiser, never privacy noise", {
  set.seed(3)
  runs <- fake_runs(4, 500, c(slope = 1), s_w = 1, s_b = 0)
  for (r in seq_along(runs)) runs[[r]][, 1, 1] <- runs[[r]][, 1, 1] + 10 * r
  v <- pgbb:::.pool_runs(runs)$variability
  w_priv <- tryCatch(pgbb:::.warn_noise_dominates(v), warning = conditionMessage)
  w_np <- tryCatch(pgbb:::.warn_noise_dominates(v, private = FALSE), warning = conditionMessage)
  expect_match(w_priv, "privacy noise and the optimiser's error")
  expect_match(w_priv, "more iterations per training", fixed = TRUE)
  expect_match(w_np, "no privacy noise was added", fixed = TRUE)
  expect_no_match(w_np, "privacy noise and|epsilon")
  # End to end: a non-private pgbb() whose short runs disagree says so without
  # blaming privacy noise (sigma = 0 is recorded in the ledger).
  d <- data.frame(x = runif(300))
  d$y <- d$x + rnorm(300)
  msgs <- character(0)
  withCallingHandlers(
    pgbb(y ~ x, data = d, loss = "huber", epsilon = Inf, bounds = list(x = c(0, 1), .response = c(-4, 5)),
         control = pgbb_control(iterations = 6, runs = 3, hidden = 4, draws = 50)),
    pgbb_noise_dominates = function(w) { msgs <<- c(msgs, conditionMessage(w)); invokeRestart("muffleWarning") })
  # Two iterations per run leave the runs far apart: the warning must fire.
  expect_gte(length(msgs), 1L)
  for (m in msgs) expect_no_match(m, "privacy noise and")
})

test_that("a fit of R runs is accounted as R T K releases and trains R different generators", {
  set.seed(4)
  n <- 2000
  d <- data.frame(x = runif(n, 0, 2))
  d$y <- 1 + 0.5 * d$x + rnorm(n)
  b <- list(x = c(0, 2), .response = c(-5, 8))
  ctl <- pgbb_control(iterations = 100, hidden = c(8, 8), draws = 300, runs = 3)
  fit <- suppressWarnings(pgbb(y ~ x, d, epsilon = 2, bounds = b, control = ctl))
  expect_identical(fit$ledger$runs, 3L)
  # 100 iterations in all: 3 runs of 33, 99 releases.
  expect_identical(fit$ledger$iterations, 33L)
  # delta is the default min(1e-6, 0.01 / n) = 1e-6.
  sig <- pgbb_sigma(epsilon = 2, delta = 1e-6, n = n, blocks = 20, clip = fit$ledger$clip, rate = 0.1,
                    iterations = 3 * 33)
  expect_equal(fit$ledger$sigma, as.numeric(sig), tolerance = 1e-6)
  expect_lte(fit$ledger$epsilon, 2 * (1 + 1e-9))
  # The same sigma accounted for one run only would certify a smaller epsilon.
  e1 <- pgbb_epsilon(sigma = fit$ledger$sigma, delta = 1e-6, n = n, blocks = 20, clip = fit$ledger$clip,
                     rate = 0.1, iterations = 33)
  expect_lt(as.numeric(e1), fit$ledger$epsilon)
  # Independently: each run's RDP curve from pgbb_rdp(), summed over the three runs
  # (RDP adds over independent mechanisms, SM S1.4), converted once.
  orders <- 2:256
  per_run <- 33 * pgbb_rdp(orders, n = n, blocks = 20, clip = fit$ledger$clip, sigma = fit$ledger$sigma,
                           rate = 0.1) / (orders - 1)
  e3 <- rdp_epsilon(per_run + per_run + per_run, orders, 1e-6)
  expect_equal(as.numeric(e3), fit$ledger$epsilon, tolerance = 1e-9)
  expect_lte(as.numeric(e3), 2 * (1 + 1e-9))
  g <- fit$fit$generator
  expect_length(g$more_layers, 2L)
  expect_false(identical(g$layers, g$more_layers[[1]]))
  v <- fit$variability
  expect_setequal(v$term, c("(Intercept)", "x"))
  expect_true(all(v$between > 0 & v$within > 0))
  expect_output(print(fit), "noise-aware, 3 independent trainings")
  s <- as.data.frame(summary(fit))
  expect_true(all(c("within", "between", "total") %in% names(s)))
  sn <- summary(fit, type = "normal")$coefficients[[1]]
  expect_equal(unname(sn[, "upper"] - sn[, "estimate"]),
               unname(qt(0.975, v$df) * v$total), tolerance = 1e-12)
  expect_equal(dim(posterior_draws(fit, 50)), c(50L, 2L))
  # runs = 1 says loudly that its intervals leave out the noise error.
  set.seed(4)
  one <- suppressWarnings(pgbb(y ~ x, d, epsilon = 2, bounds = b,
                               control = pgbb_control(iterations = 100, hidden = c(8, 8), draws = 300, runs = 1)))
  expect_output(print(one), "do NOT include the error the privacy noise")
  expect_output(print(one), "one partition's 19 degrees of freedom (blocks - 1)", fixed = TRUE)
  expect_null(pgbb:::.pp_variability(one, 2L, 1L))
  expect_false("within" %in% names(as.data.frame(one)))
})

# Runs on one partition: a shared blocked-bootstrap deviation S(u_i) at common
# block weights, plus each run's own noise-induced spread N_r(u_i) and centre error e_r.
shared_runs <- function(R, n, theta_hat, s_s, s_n, s_b) {
  S <- matrix(rnorm(n * length(theta_hat), sd = s_s), n)
  lapply(seq_len(R), function(r) {
    a <- array(S + rnorm(n * length(theta_hat), sd = s_n), c(n, length(theta_hat), 1L),
               list(NULL, names(theta_hat), NULL))
    e <- rnorm(length(theta_hat), sd = s_b)
    for (j in seq_along(theta_hat)) a[, j, 1L] <- a[, j, 1L] + theta_hat[j] + e[j]
    a
  })
}

test_that("with a shared partition the runs' deviations are averaged: the noise spread falls by R", {
  set.seed(3)
  runs <- shared_runs(5, 20000, c(a = 0, b = 1), s_s = 1, s_n = 2, s_b = 0.5)
  p <- pgbb:::.pool_runs(runs, shared = TRUE)
  v <- p$variability
  # averaged deviation: var(S) + var(N) / R = 1 + 4 / 5 (Monte Carlo error of a variance ~2%)
  expect_equal(v$within^2, c(1.8, 1.8), tolerance = 0.05)
  expect_true(all(v$shared_partition))
  # the separate runs' spread would be 1 + 4 = 5
  fresh <- pgbb:::.pool_runs(runs)$variability
  expect_equal(fresh$within^2, c(5, 5), tolerance = 0.05)
  expect_false(any(fresh$shared_partition))
  m <- t(sapply(runs, function(a) colMeans(a[, , 1])))
  expect_equal(v$total^2, unname(v$within^2 + apply(m, 2, var) / 5))
})

test_that("the shared-partition interval covers at its level whatever the noise shares", {
  skip_if_not_slow()
  # theta_hat ~ N(0, s_s^2) is the sampling error the shared deviation stands for;
  # every run adds its own centre error e_r and its own spread N_r. 400 replicates:
  # the Monte Carlo sd of a 0.95 coverage is 0.011; the interval is conservative
  # by the N_r / R part of the spread, so only the lower limit is tight.
  set.seed(4)
  for (s_n in c(0.5, 3)) for (s_b in c(0.2, 3)) {
    hit <- replicate(400, {
      theta_hat <- c(a = rnorm(1))
      p <- pgbb:::.pool_runs(shared_runs(5, 2000, theta_hat, s_s = 1, s_n = s_n, s_b = s_b), shared = TRUE)
      q <- quantile(p$draws[, 1, 1], c(0.025, 0.975))
      q[1] <= 0 && 0 <= q[2]
    })
    expect_gt(mean(hit), 0.92, label = sprintf("coverage at s_n = %g, s_b = %g", s_n, s_b))
  }
})

# Runs on one partition of real blocked structure: the data's S block means
# (one partition), block weights u ~ Dirichlet(gamma*) common to the runs, and
# each run's own spread and centre error. The estimand is the data mean.
blocked_shared_runs <- function(R, n_draw, S, s_n, s_b, n = 2000) {
  y <- rnorm(n)
  ys <- tapply(y, sample(rep(seq_len(S), length.out = n)), mean)
  g <- matrix(rgamma(n_draw * S, gamma_star(n, S)), n_draw)
  su <- drop((g / rowSums(g)) %*% ys) - mean(y)
  runs <- lapply(seq_len(R), function(r)
    array(su + rnorm(n_draw, sd = s_n) + rnorm(1, sd = s_b), c(n_draw, 1L, 1L), list(NULL, "a", NULL)))
  list(runs = runs, truth = -mean(y))   # draws are centred at the data mean: the truth 0 sits at -mean(y)
}

test_that("one partition's spread rests on S - 1 degrees of freedom, and the shared pooling carries them", {
  # s_n and s_b in units of the sampling sd 1 / sqrt(2000): noise small next to
  # the sampling spread, where the partition's degrees of freedom matter most.
  # 400 data sets: Monte Carlo sd of a 0.95 coverage about 0.011.
  set.seed(12)
  se <- 1 / sqrt(2000)
  cover <- function(blocks) mean(replicate(400, {
    b <- blocked_shared_runs(5, 2000, 5, s_n = 0.2 * se, s_b = 0.2 * se)
    q <- quantile(pgbb:::.pool_runs(b$runs, shared = TRUE, blocks = blocks)$draws[, 1, 1], c(0.025, 0.975))
    q[1] <= b$truth && b$truth <= q[2]
  }))
  with_df <- cover(5)
  without <- cover(NULL)   # the spread taken as known: z on 4 degrees of freedom, about 0.88
  expect_gt(with_df, 0.93)
  expect_lt(without, 0.91)
  expect_identical(pgbb:::.partition_df(5), 4)
  # The normal-type interval's degrees of freedom combine both estimated parts.
  b <- blocked_shared_runs(5, 2000, 5, s_n = 0.2 * se, s_b = 0.2 * se)
  v <- pgbb:::.pool_runs(b$runs, shared = TRUE, blocks = 5)$variability
  W <- v$within^2; B <- v$between^2
  expect_equal(v$df, (W + B / 5)^2 / (W^2 / 4 + (B / 5)^2 / 4))
  expect_equal(pgbb:::.pool_runs(b$runs)$variability$df, 4 * (1 + 5 * pgbb:::.pool_runs(b$runs)$variability$within^2 / B)^2)
})

test_that("the t scale factors make a normal deviation t-distributed", {
  set.seed(13)
  f <- pgbb:::.t_scale_factors(200000, 4)
  x <- rnorm(200000) * f
  # quantiles of t_4 within Monte Carlo error (about 0.01 at the 97.5% point)
  expect_equal(unname(quantile(x, c(0.025, 0.5, 0.975))), qt(c(0.025, 0.5, 0.975), 4), tolerance = 0.02)
  expect_identical(pgbb:::.t_scale_factors(3, Inf), c(1, 1, 1))
})

test_that("share_partition (the default) trains the runs on one partition and is recorded", { quiet_noise({
  set.seed(10)
  d <- data.frame(x = runif(300)); d$y <- d$x + rnorm(300)
  b <- list(x = c(0, 1), .response = c(-4, 5))
  ctl <- pgbb_control(iterations = 40, hidden = 4, draws = 50, blocks = 5, runs = 3, share_partition = TRUE)
  f <- pgbb(y ~ x, d, loss = "huber", epsilon = 4, bounds = b, control = ctl, progress = FALSE)
  expect_true(f$fit$shared_partition)
  expect_true(all(f$variability$shared_partition))
  expect_null(f$fit$partition)    # a private fit keeps no partition
  # the default shares; the same seed without sharing: same budget and noise scale
  set.seed(10)
  g <- pgbb(y ~ x, d, loss = "huber", epsilon = 4, bounds = b, progress = FALSE,
            control = pgbb_control(iterations = 40, hidden = 4, draws = 50, blocks = 5, runs = 3,
                                   share_partition = FALSE))
  expect_false(g$fit$shared_partition)
  expect_true(pgbb_control()$share_partition)
  expect_false(isTRUE(all.equal(f$draws, g$draws)))
  expect_equal(f$fit$ledger$sigma, g$fit$ledger$sigma)
  expect_equal(f$fit$ledger$epsilon, g$fit$ledger$epsilon)
  expect_error(pgbb_control(share_partition = NA), "'share_partition'")
}) })

# pgbb() pools, in the original units, the very run draws that its inner
# pgbb_fit() pooled on the coded design (keep_runs = TRUE): mapping them by
# the fixed unscaling and pooling them again must give pgbb()'s draws when the
# post-processing stream is the same.
test_that("keep_runs keeps each run's draws, and pgbb() pools those same draws", { quiet_noise({
  set.seed(21)
  d <- data.frame(x = runif(400, 0, 2)); d$y <- 1 + d$x + rnorm(400)
  b <- list(x = c(0, 2), .response = c(-5, 8))
  X <- cbind(1, (d$x - 1))                       # x coded to [-1, 1] by hand
  f <- pgbb_fit(X, d$y, loss = "huber", epsilon = 2, box = rbind(c(-9, 9), c(-9, 9), c(0.01, 9)),
                x_bounds = c(-1, 1), y_bounds = c(-5, 8), blocks = 5, iterations = 60, hidden = 4,
                draws = 40, runs = 3, keep_runs = TRUE, progress = FALSE)
  expect_length(f$run_draws, 3L)
  expect_identical(dim(f$run_draws[[1L]]), c(40L, 3L, 1L))
  expect_false(identical(f$run_draws[[1L]], f$run_draws[[2L]]))
  expect_null(pgbb_fit(X, d$y, loss = "huber", epsilon = 2, box = rbind(c(-9, 9), c(-9, 9), c(0.01, 9)),
                       x_bounds = c(-1, 1), y_bounds = c(-5, 8), blocks = 5, iterations = 6, hidden = 4,
                       draws = 10, runs = 2, progress = FALSE)$run_draws)
  expect_error(pgbb_fit(X, d$y, loss = "huber", epsilon = 2, x_bounds = c(-1, 1), y_bounds = c(-5, 8),
                        keep_runs = NA, progress = FALSE), "'keep_runs'")
  # through pgbb(): the runs' generators are evaluated once (one call per
  # level evaluates every run), by the inner pgbb_fit(), whose run draws pgbb()
  # then pools in the original units; before keep_runs every generator was
  # evaluated a second time
  evals <- 0L
  here <- environment()
  suppressMessages(trace("cpp_generator_eval", where = asNamespace("pgbb"), print = FALSE,
                         tracer = bquote(assign("evals", get("evals", envir = .(here)) + 1L, envir = .(here)))))
  on.exit(suppressMessages(untrace("cpp_generator_eval", where = asNamespace("pgbb"))), add = TRUE)
  set.seed(22)
  g <- pgbb(y ~ x, d, loss = "quantile", tau = c(0.3, 0.7), epsilon = 2, bounds = b, progress = FALSE,
            control = pgbb_control(iterations = 60, hidden = 4, draws = 40, blocks = 5, runs = 3))
  expect_identical(evals, 2L)                     # 2 levels, each call all 3 runs
  expect_null(g$fit$run_draws)                    # not stored with the release
  expect_identical(dim(g$draws), c(40L, 2L, 2L))
  set.seed(22)
  h <- pgbb(y ~ x, d, loss = "quantile", tau = c(0.3, 0.7), epsilon = 2, bounds = b, progress = FALSE,
            control = pgbb_control(iterations = 60, hidden = 4, draws = 40, blocks = 5, runs = 3))
  expect_identical(g$draws, h$draws)
}) })
