# CR-GS (Algorithm 2): resample estimates, privacy on fixed indices, release.

test_that("C++ resample estimates match R on the same indices", {
  set.seed(1)
  n <- 300
  x <- runif(n, -1, 1)
  X <- cbind(runif(n), rnorm(n))
  seed <- fixed_seed()
  for (mode in c("wr", "wor")) {
    plan <- pgbb:::.cr_plan(n, 40, 25, mode, NULL)
    idx <- pgbb:::cpp_resample_indices(n, 40, 25, mode, if (mode == "wr") plan$kappa else 0L, seed)$indices
    # scalar mean
    st <- pgbb:::.cr_gs_stats(gs_spec(x, "mean", c(-1, 1)), plan, seed)
    expect_equal(st$theta_hat, mean(x))
    expect_equal(st$dist, abs(apply(idx, 1, function(s) mean(x[s])) - mean(x)), tolerance = 1e-13)
    # vector mean (data clipped to the bounds first)
    b <- list(lower = c(0, -1), upper = c(1, 1))
    Xc <- cbind(X[, 1], pmin(pmax(X[, 2], -1), 1))
    st <- pgbb:::.cr_gs_stats(gs_spec(X, "mean", b), plan, seed)
    expect_equal(st$theta_hat, colMeans(Xc))
    ref <- apply(idx, 1, function(s) sqrt(sum((colMeans(Xc[s, ]) - colMeans(Xc))^2)))
    expect_equal(st$dist, ref, tolerance = 1e-12)
    # U-statistics (positions are distinct even when records repeat)
    u2 <- function(z, h) { p <- combn(length(z), 2); mean(h(z[p[1, ]], z[p[2, ]])) }
    for (k in list(list("ustat_product", function(a, b) a * b), list("ustat_variance", function(a, b) (a - b)^2 / 2))) {
      st <- pgbb:::.cr_gs_stats(gs_spec(x, k[[1]], c(-1, 1)), plan, seed)
      th <- u2(x, k[[2]])
      expect_equal(st$theta_hat, th, tolerance = 1e-12)
      expect_equal(st$dist[1:5], abs(apply(idx[1:5, ], 1, function(s) u2(x[s], k[[2]])) - th), tolerance = 1e-10)
    }
  }
})

test_that("ridge M-estimators solve their penalised problems (checked with optim in R)", {
  set.seed(2)
  n <- 400
  X <- cbind(1, runif(n, -1, 1), runif(n, -1, 1))
  yb <- rbinom(n, 1, plogis(X %*% c(0.3, 1, -2)))
  yh <- as.numeric(X %*% c(1, 2, -1) + rt(n, 2))
  b <- list(lower = c(1, -1, -1), upper = c(1, 1, 1))
  lambda <- 0.05
  hub <- function(r, c = 1.345) ifelse(abs(r) <= c, r^2 / 2, c * abs(r) - c^2 / 2)
  obj_l <- function(th, Xs, ys) mean(log1p(exp(-ifelse(ys == 1, 1, -1) * (Xs %*% th)))) + lambda / 2 * sum(th^2)
  obj_h <- function(th, Xs, ys) mean(hub(ys - Xs %*% th)) + lambda / 2 * sum(th^2)
  seed <- fixed_seed()
  plan <- pgbb:::.cr_plan(n, 60, 6, "wr", NULL)
  idx <- pgbb:::cpp_resample_indices(n, 60, 6, "wr", plan$kappa, seed)$indices
  for (cs in list(list("ridge_logistic", yb, obj_l), list("ridge_huber", yh, obj_h))) {
    spec <- gs_spec(X, cs[[1]], b, y = cs[[2]], lambda = lambda)
    st <- pgbb:::.cr_gs_stats(spec, plan, seed)
    ref <- optim(rep(0, 3), cs[[3]], Xs = X, ys = cs[[2]], method = "BFGS",
                 control = list(reltol = 1e-14, maxit = 1000))$par
    # BFGS to reltol 1e-14 on a strongly convex objective: parameters agree to ~1e-5.
    expect_equal(st$theta_hat, ref, tolerance = 1e-5)
    s <- idx[2, ]
    ref2 <- optim(rep(0, 3), cs[[3]], Xs = X[s, ], ys = cs[[2]][s], method = "BFGS",
                  control = list(reltol = 1e-14, maxit = 1000))$par
    expect_equal(st$dist[2], sqrt(sum((ref2 - st$theta_hat)^2)), tolerance = 1e-4)
  }
})

test_that("SGD schedule (18) holds for the default and for a given constant", {
  for (lam in c(0.01, 0.1, 1)) for (a in c(0.6, 2 / 3, 0.9)) {
    L <- 3 / 4 + lam
    s <- pgbb:::cpp_sgd_default_schedule(a, L, lam)
    t0 <- s[["t0"]]; cc <- s[["c"]]
    t <- c(0:1000, 10^(4:8))
    eta <- cc * (t + t0)^(-a)
    expect_true(all(eta <= 1 / L))
    expect_true(all(diff(1 / eta)[seq_len(1000)] <= lam / 2 * (1 + 1e-12)))
    if (t0 > 1) {  # t0 - 1 violates it (smallest t0)
      expect_false(L * ((1 + 1 / (t0 - 1))^a - 1) <= lam / 2)
    }
    if (a < 0.7 && lam >= 0.1) {  # otherwise t0 is astronomically large (an error says so)
      t1 <- pgbb:::cpp_sgd_t0(0.5 / L, a, L, lam)
      eta1 <- 0.5 / L * (t + t1)^(-a)
      expect_true(all(eta1 <= 1 / L) && all(diff(1 / eta1)[seq_len(1000)] <= lam / 2 * (1 + 1e-12)))
    }
  }
})

# The heart of Lemma D.1: on the same indices, moving one record anywhere changes
# theta^ by at most Delta_n and the scaled quantile by at most tau_m (kappa* Delta_m + Delta_n).
check_gs_neighbours <- function(x, est, bounds, mode, moves, y = NULL, y_moves = NULL, ..., B = 60, m = NULL) {
  seed <- fixed_seed()
  n <- NROW(x)
  base_spec <- gs_spec(x, est, bounds, y = y, ...)
  plan <- pgbb:::.cr_plan(n, m %||% max(2, ceiling(n / log(n))), B, mode, NULL)
  b0 <- gs_Q(base_spec, plan, seed)
  Dn <- base_spec$sensitivity(n); Dm <- base_spec$sensitivity(plan$m)
  bound_Q <- base_spec$tau(plan$m) * (plan$kappa * Dm + Dn)
  worst <- 0
  for (j in busiest_records(plan, seed, 2)) for (k in seq_along(moves)) {
    x2 <- x
    if (is.matrix(x2)) x2[j, ] <- moves[[k]] else x2[j] <- moves[[k]]
    y2 <- y
    if (!is.null(y_moves)) y2[j] <- y_moves[[k]]
    s2 <- gs_spec(x2, est, bounds, y = y2, ...)
    b1 <- gs_Q(s2, plan, seed)
    dth <- sqrt(sum((b1$theta - b0$theta)^2))
    expect_lte(dth, Dn * (1 + 1e-9) + 1e-15)
    expect_lte(abs(b1$Q - b0$Q), bound_Q * (1 + 1e-9) + 1e-15)
    worst <- max(worst, abs(b1$Q - b0$Q) / bound_Q)
  }
  worst
}

test_that("privacy: neighbours on the same indices respect the calibrated sensitivities (every estimator)", {
  set.seed(3)
  n <- 400
  x <- runif(n, -1, 1)
  for (mode in c("wr", "wor")) {
    w <- check_gs_neighbours(x, "mean", c(-1, 1), mode, list(-1, 1, 5))
    expect_gt(w, 0)  # the moves do change Q (the check is not vacuous)
    check_gs_neighbours(x * 0.5, "ustat_product", c(-0.5, 0.5), mode, list(-0.5, 0.5))
    check_gs_neighbours(x * 0.5, "ustat_product", c(-0.5, 0.5), mode, list(-0.5, 0.5), degenerate = TRUE)
    check_gs_neighbours(x, "ustat_variance", c(-1, 1), mode, list(-1, 1))
    X <- cbind(runif(n), runif(n, -2, 2))
    check_gs_neighbours(X, "mean", list(lower = c(0, -2), upper = c(1, 2)), mode, list(c(0, -2), c(1, 2), c(0, 2)))
    check_gs_neighbours(X, list(fun = "mean", transform = function(v) c(v[1] * 2, sin(v[2])), lipschitz = 2),
                        list(lower = c(0, -2), upper = c(1, 2)), mode, list(c(0, -2), c(1, 2)))
    Z <- cbind(1, matrix(runif(2 * n, -1, 1), n))
    yb <- rbinom(n, 1, plogis(Z %*% c(0, 1, -1)))
    bz <- list(lower = c(1, -1, -1), upper = c(1, 1, 1))
    check_gs_neighbours(Z, "ridge_logistic", bz, mode, list(c(1, 1, 1), c(1, -1, 1)), y = yb,
                        y_moves = list(1 - yb[1], yb[1]), lambda = 0.5, B = 20)
    yh <- as.numeric(Z %*% c(1, 1, -1) + rnorm(n))
    check_gs_neighbours(Z, "ridge_huber", bz, mode, list(c(1, 1, 1), c(1, -1, -1)), y = yh,
                        y_moves = list(1e6, -1e6), lambda = 0.5, B = 20)
    check_gs_neighbours(Z, "sgd_logistic", bz, mode, list(c(1, 1, 1), c(1, -1, 1)), y = yb,
                        y_moves = list(1 - yb[1], yb[1]), lambda = 0.5, radius = 3, B = 20)
    check_gs_neighbours(Z, "sgd_huber", bz, mode, list(c(1, 1, 1), c(1, -1, -1)), y = yh,
                        y_moves = list(1e3, -1e3), lambda = 0.5, radius = 3, B = 20)
    check_gs_neighbours(x, list(fun = function(z) mean(z), sensitivity = function(N) 2 / N), c(-1, 1), mode,
                        list(-1, 1), B = 20)
  }
})

test_that("cr_gs releases with the documented noise scales (Algorithm 2)", {
  set.seed(4)
  x <- runif(1000)
  fit <- cr_gs(x, "mean", mu = 2, bounds = c(0, 1), B = 50)
  expect_s3_class(fit, "private_cr")
  n <- 1000; m <- ceiling(n / log(n))
  expect_equal(fit$m, m)
  # Default: the realised multiplicity, never above kappa* here (it could be: kappa*
  # only bounds it with probability 1 - rho) and at least 2 (m draws from n repeat).
  expect_identical(fit$multiplicity, "realised")
  expect_true(is.na(fit$kappa_star))
  expect_true(fit$kappa >= 2 && fit$kappa <= kappa_star(n, m, 50, 1 / n))
  expect_equal(fit$noise$nu_n, sqrt(2) * (1 / n) / 2)
  expect_equal(fit$noise$sigma_m, sqrt(2) * sqrt(m) * (fit$kappa / m + 1 / n) / 2)
  fb <- cr_gs(x, "mean", mu = 2, bounds = c(0, 1), B = 50, multiplicity = "bound")
  expect_equal(fb$kappa_star, kappa_star(n, m, 50, 1 / n))
  expect_equal(fb$kappa, fb$kappa_star)
  expect_equal(fb$noise$sigma_m, sqrt(2) * sqrt(m) * (fb$kappa_star / m + 1 / n) / 2)
  expect_error(cr_gs(x, "mean", mu = 2, bounds = c(0, 1), multiplicity = "max"), "'multiplicity'")
  expect_equal(fit$radius, fit$q_tilde / sqrt(n))
  expect_equal(unname(fit$interval), unname(fit$center) + c(-1, 1) * fit$radius)
  expect_false(any(c("theta_hat", "Q", "dist") %in% names(fit)))  # nothing non-private is kept
  # The release noise: given the statistics, centre ~ N(theta, nu^2), radius ~ max(N(Q, sigma^2), 0).
  z <- t(vapply(1:4000, function(i) unlist(pgbb:::cpp_cr_gs_release(0.3, 1, 0.1, 0.05, 0.5, 0.25, fixed_key(i))), c(0, 0)))
  expect_lt(abs(mean(z[, 1]) - 0.3) / (0.1 / sqrt(4000)), 5)
  expect_lt(abs(sd(z[, 1]) / 0.1 - 1), 0.05)   # sd of an sd estimate at 4000 draws ~ 1.1%
  expect_lt(abs(mean(z[, 2] == 0) - pnorm(-2)) / sqrt(pnorm(-2) * (1 - pnorm(-2)) / 4000), 5)
})

test_that("cr_gs is reproducible, validates arguments and reports privacy", {
  x <- runif(500)
  set.seed(5); a <- cr_gs(x, "mean", mu = 1, bounds = c(0, 1), B = 40)
  set.seed(5); b <- cr_gs(x, "mean", mu = 1, bounds = c(0, 1), B = 40)
  expect_identical(a$center, b$center)
  expect_equal(a$privacy$mu, 1)
  expect_equal(a$privacy$delta, 0)
  expect_lte(gdp_delta(1, a$privacy$epsilon), 1 / 500)
  expect_error(cr_gs(x, "mean", bounds = c(0, 1)), "'mu'")
  expect_error(cr_gs(x, "mean", mu = 1), "'bounds'")
  expect_error(cr_gs(x, "mean", mu = 1, bounds = c(1, 0)), "'bounds'")
  expect_error(cr_gs(x, "median", mu = 1, bounds = c(0, 1)), "'estimator'")
  expect_error(cr_gs(x, "mean", mu = 1, bounds = c(0, 1), alpha = 1), "'alpha'")
  expect_error(cr_gs(x, "mean", mu = 1, bounds = c(0, 1), m = 1), "'m'")
  expect_error(cr_gs(cbind(x, x), "ridge_logistic", mu = 1, bounds = c(0, 1), y = x, lambda = 1), "'y'")
  expect_error(cr_gs(x, list(fun = "mean", sensitivity = function(N) 0.1 / N), mu = 1, bounds = c(0, 1)),
               "estimator\\$sensitivity")
  expect_error(cr_gs(c(x, NA), "mean", mu = 1, bounds = c(0, 1)), "'x'")
})

test_that("the multiplicity failure of Algorithm 1 propagates from the statistics", {
  x <- runif(200)
  spec <- gs_spec(x, "mean", c(0, 1))
  plan <- pgbb:::.cr_plan(200, 150, 30, "wr", NULL)
  plan$kappa <- plan$check <- 1L   # certain to be exceeded with 150 draws from 200
  st <- pgbb:::.cr_gs_stats(spec, plan, fixed_seed())
  expect_gt(st$failed_at, 0)
  err <- tryCatch(pgbb:::.multiplicity_failure(st$failed_at, st$failed_mult, 1L, 0.01),
                  pgbb_multiplicity_failure = function(e) e)
  expect_s3_class(err, "pgbb_multiplicity_failure")
  expect_match(conditionMessage(err), "Algorithm 1")
})

test_that("the realised multiplicity is the largest count of any record in any resample (every path)", {
  set.seed(7)
  n <- 300; m <- 120; B <- 25
  x <- runif(n)
  seed <- fixed_seed()
  idx <- pgbb:::cpp_resample_indices(n, m, B, "wr", 0L, seed)$indices
  per <- apply(idx, 1, function(r) max(tabulate(r, n)))
  expect_equal(pgbb:::cpp_resample_multiplicities(n, m, B, "wr", seed), per)
  expect_equal(pgbb:::cpp_resample_multiplicities(n, m, B, "wor", seed), rep(1L, B))
  plan <- pgbb:::.cr_plan(n, m, B, "wr", NULL, "realised")
  # The fused scalar-mean pass, the generic C++ pass and the R-estimator pass.
  expect_equal(pgbb:::.cr_gs_stats(gs_spec(x, "mean", c(0, 1)), plan, seed)$max_mult, max(per))
  expect_equal(pgbb:::.cr_gs_stats(gs_spec(cbind(x, x), "mean", c(0, 1)), plan, seed)$max_mult, max(per))
  user <- list(fun = mean, sensitivity = function(N) 1 / N)
  expect_equal(pgbb:::.cr_gs_stats(gs_spec(x, user, c(0, 1)), plan, seed)$max_mult, max(per))
  # Same indices as the paper's plan: only the calibration differs.
  pb <- pgbb:::.cr_plan(n, m, B, "wr", NULL, "bound")
  expect_equal(pgbb:::.cr_gs_stats(gs_spec(x, "mean", c(0, 1)), plan, seed)$dist,
               pgbb:::.cr_gs_stats(gs_spec(x, "mean", c(0, 1)), pb, seed)$dist)
})

test_that("an impossible SGD schedule is an error naming the remedy", {
  expect_error(pgbb:::cpp_sgd_t0(1e-3, 0.9, 1, 0.01), "step_c")
})

test_that("cr_* take `level` beside the paper's `alpha`, and cr_gs an (epsilon, delta) budget", {
  set.seed(5)
  x <- runif(3000, -1, 1)
  # level = 0.95 is alpha = 0.05: the same release under the same seed.
  set.seed(6); a <- cr_gs(x, "mean", mu = 4, alpha = 0.05, bounds = c(-1, 1), B = 200)
  set.seed(6); l <- cr_gs(x, "mean", mu = 4, level = 0.95, bounds = c(-1, 1), B = 200)
  expect_identical(l$interval, a$interval)
  expect_equal(l$level, 0.95)
  set.seed(6); d <- cr_gs(x, "mean", mu = 4, bounds = c(-1, 1), B = 200)
  expect_equal(d$level, 0.9)  # the paper's default
  expect_error(cr_gs(x, "mean", mu = 4, alpha = 0.1, level = 0.95, bounds = c(-1, 1)), "'level'")
  expect_error(cr_gs(x, "mean", mu = 4, level = 1.5, bounds = c(-1, 1)), "'level'")
  # (epsilon, delta): mu is gdp_mu(epsilon, delta), whose guarantee implies the budget.
  set.seed(6); e <- quiet_zero_radius(cr_gs(x, "mean", epsilon = 1, delta = 1e-5, bounds = c(-1, 1), B = 200))
  mu <- gdp_mu(1, 1e-5)
  expect_equal(e$privacy$mu, mu)
  expect_lte(gdp_delta(mu, 1), 1e-5 * (1 + 1e-9))
  # the record reports the target as given, not its equivalent at the default delta
  expect_equal(c(e$privacy$epsilon, e$privacy$delta_dp), c(1, 1e-5))
  set.seed(6); m <- quiet_zero_radius(cr_gs(x, "mean", mu = mu, bounds = c(-1, 1), B = 200))
  expect_identical(e$interval, m$interval)
  expect_error(cr_gs(x, "mean", mu = 1, epsilon = 1, delta = 1e-5, bounds = c(-1, 1)), "'mu'")
  expect_error(cr_gs(x, "mean", epsilon = 1, bounds = c(-1, 1)), "'delta'")
  expect_error(cr_gs(x, "mean", delta = 1e-5, bounds = c(-1, 1)), "'epsilon'")
  expect_error(cr_gs(x, "mean", bounds = c(-1, 1)), "'mu'")
  # The other confidence-region front ends share the level argument.
  set.seed(7); s1 <- cr_ss(x, "quantile", mu = 8, delta = 1e-6, alpha = 0.2, bounds = c(-1, 1), B = 60, mode = "wor")
  set.seed(7); s2 <- cr_ss(x, "quantile", mu = 8, delta = 1e-6, level = 0.8, bounds = c(-1, 1), B = 60, mode = "wor")
  expect_identical(s1$interval, s2$interval)
  set.seed(8); g1 <- cr_dette_graw(x, "mean", mu = 8, alpha = 0.2, B = 100, bounds = c(-1, 1))
  set.seed(8); g2 <- cr_dette_graw(x, "mean", mu = 8, level = 0.8, B = 100, bounds = c(-1, 1))
  expect_identical(g1$interval, g2$interval)
  expect_equal(g2$level, 0.8)
  set.seed(9); b1 <- cr_blbquant(x, "mean", mu = 8, alpha = 0.2, bounds = c(-1, 1))
  set.seed(9); b2 <- cr_blbquant(x, "mean", mu = 8, level = 0.8, bounds = c(-1, 1))
  expect_identical(b1$interval, b2$interval)
})

test_that("misspelt estimator parameters in '...' are errors naming them", {
  x01 <- (1:200) / 201
  expect_error(cr_gs(x01, "mean", mu = 1, bounds = c(0, 1), lamda = 1), "'lamda'")
  expect_error(cr_gs(x01, "mean", mu = 1, bounds = c(0, 1), tolerance = 1, stepc = 2),
               "unknown arguments.*'tolerance', 'stepc'")
  expect_error(pgbb:::.check_dots(list(3), "y", "cr_gs"), "must be named")
  expect_error(cr_ss(x01, "quantile", mu = 1, delta = 1e-6, bounds = c(0, 1), Beta = 0.1),
               "'Beta'.*beta, C, degenerate")
  # Documented names still pass (they reach the estimator).
  set.seed(1)
  expect_s3_class(quiet_radius_noise(quiet_zero_radius(cr_ss(x01, "quantile", mu = 1, delta = 1e-6, bounds = c(0, 1),
                                                             beta = 0.01, B = 20))), "private_cr")
  # `a` (the SGD exponent, a prefix of `alpha`) is still routed to the estimator.
  y <- as.numeric(x01 > 0.5)
  set.seed(2)
  expect_s3_class(quiet_zero_radius(cr_gs(x01, "sgd_logistic", y = y, lambda = 1, radius = 5, mu = 1,
                                          bounds = c(0, 1), B = 20, a = 0.6)), "private_cr")
})

test_that("cr_gs() and cr_ss() warn when the released radius is 0 (bounds excluding the data)", {
  set.seed(102)
  x <- runif(200, -1, 1)
  # Q = 0 (every clipped resample mean is 5); the noisy radius max(Q + noise, 0) is
  # then 0 about half the time. Over 30 seeds the warning must come exactly with a
  # zero radius, and a zero radius must occur (all 30 positive: probability 2^-30).
  expect_message(suppressWarnings(cr_ss(x, "quantile", mu = 4, delta = 1e-6, bounds = c(5, 6), B = 40)),
                 "cr_ss\\(\\): 200 value\\(s\\) of 'x' lay outside the declared 'bounds'")
  calls <- list(
    cr_gs = function() cr_gs(x, "mean", mu = 4, bounds = c(5, 6), B = 40),
    cr_ss = function() cr_ss(x, "quantile", mu = 4, delta = 1e-6, bounds = c(5, 6), B = 40))
  for (fun in names(calls)) {
    zeros <- 0L
    for (s in 1:30) {
      set.seed(s)
      w <- NULL
      fit <- withCallingHandlers(suppressMessages(calls[[fun]]()),
                                 warning = function(c) {
                                   # Only the zero-radius warning is under test here.
                                   if (grepl("released radius is 0", conditionMessage(c), fixed = TRUE))
                                     w <<- conditionMessage(c)
                                   invokeRestart("muffleWarning")
                                 })
      if (fit$radius == 0) {
        zeros <- zeros + 1L
        expect_match(w, paste0(fun, "\\(\\): the released radius is 0"))
        if (fun == "cr_gs") expect_match(w, "every resample statistic equals the full-data one.*bounds' exclude the data")
      } else {
        expect_null(w)
      }
    }
    expect_gt(zeros, 0L)
  }
})

test_that("cr_gs() counts the values it clips, column by column, whatever the storage mode", {
  set.seed(3)
  x <- cbind(runif(100, -1, 1), runif(100, 0, 2))
  x[1:7, 1] <- 1.5      # 7 above the first column's upper bound
  x[8:10, 2] <- -0.25   # 3 below the second column's lower bound
  x[11, ] <- c(-2, 3)   # one record outside in both columns: 2 values
  b <- list(lower = c(-1, 0), upper = c(1, 2))
  expect_identical(pgbb:::.cr_count_outside(x, b), 12)
  # The reference: a plain comparison in R.
  ref <- sum(sweep(x, 2, b$lower, "<") | sweep(x, 2, b$upper, ">"))
  expect_identical(pgbb:::.cr_count_outside(x, b), as.numeric(ref))
  # Integer data and data frames are counted alike; one bound recycles over columns.
  xi <- matrix(c(-3L, 0L, 2L, 5L), 2)
  expect_identical(pgbb:::.cr_count_outside(xi, list(lower = 0, upper = 2)), 2)
  expect_identical(pgbb:::.cr_count_outside(as.data.frame(x), b), 12)
  expect_message(suppressWarnings(cr_gs(x, "mean", mu = 4, bounds = b, B = 20)),
                 "cr_gs\\(\\): 12 value\\(s\\) of 'x' lay outside the declared 'bounds'")
})

test_that("cr_gs() warns when its radius noise is large against the radius, as cr_ss() does", {
  set.seed(44)
  x <- runif(2000, -1, 1)
  # At mu = 0.5 the radius noise's sd is about the size of the radius (the
  # helper measured coverage 0.66 at nominal 0.90 there, with no warning).
  expect_warning(cr_gs(x, "mean", mu = 0.5, bounds = c(-1, 1), level = 0.9), class = "pgbb_radius_noise")
  # At mu = 50 it is a hundred times smaller: no warning.
  expect_no_warning(cr_gs(x, "mean", mu = 50, bounds = c(-1, 1), level = 0.9))
  g <- cr_gs(x, "mean", mu = 50, bounds = c(-1, 1), level = 0.9)
  expect_error(confint(g, "zz"), "'parm'")
  expect_error(confint(g, 5), "'parm'")
  expect_error(confint(g, levl = 0.5), "unknown argument 'levl'")
})

test_that("cr_gs() refuses an estimator setting the chosen estimator does not use", {
  set.seed(45)
  x <- runif(200)
  # These ran and ignored the setting.
  expect_error(cr_gs(x, "mean", mu = 1, bounds = c(0, 1), y = rnorm(200), lambda = 3),
               "'y' must be left out for estimator \"mean\"")
  expect_error(cr_gs(x, "ustat_product", mu = 1, bounds = c(0, 1), tol = 1e-6), "'tol' must be left out")
  expect_error(cr_gs(x, "ustat_product", mu = 1, bounds = c(0, 1), degenerate = "yes"), "'degenerate'")
  X <- cbind(1, x)
  expect_error(cr_gs(X, "ridge_logistic", mu = 1, bounds = rbind(c(1, 1), c(0, 1)), y = rbinom(200, 1, 0.5),
                     lambda = 1, huber_c = 2), "'huber_c' must be left out")
  expect_error(cr_gs(X, "ridge_huber", mu = 1, bounds = rbind(c(1, 1), c(0, 1)), y = rnorm(200),
                     lambda = 1, radius = 2), "'radius' must be left out")
})

test_that("a mean's region is cut to the bounds about a centre moved into them; within_bounds = FALSE is the paper's ball", {
  # Every record at the lower bound 0, so the estimand is 0. The centre's noise is
  # symmetric about 0, so it falls below 0 in about half of the releases: in at
  # least one of 12 with probability 1 - 2^-12. Same seed, same release: the two
  # settings differ only in the post-processing.
  x <- rep(0, 200)
  # Releases of near-constant data have a small or zero radius, which cr_*() warns of.
  quiet <- function(expr) quiet_radius_noise(quiet_zero_radius(expr))
  covers <- function(f) f$interval[["lower"]] <= 0 && 0 <= f$interval[["upper"]]
  below <- logical(12)
  for (s in 1:12) {
    set.seed(s)
    cut <- quiet(cr_gs(x, "mean", mu = 1, bounds = c(0, 1), mode = "wor"))
    set.seed(s)
    ball <- quiet(cr_gs(x, "mean", mu = 1, bounds = c(0, 1), mode = "wor", within_bounds = FALSE))
    below[s] <- ball$center < 0
    r <- ball$radius
    expect_null(ball$range)
    expect_equal(unname(ball$interval), unname(ball$center) + c(-1, 1) * r)
    expect_equal(cut$radius, r)
    expect_equal(unname(cut$center), min(max(unname(ball$center), 0), 1))
    expect_equal(unname(cut$interval), c(max(0, unname(cut$center) - r), min(1, unname(cut$center) + r)))
    expect_equal(unname(confint(cut)[1, ]), unname(cut$interval))
    expect_equal(c(as.data.frame(cut)$lower, as.data.frame(cut)$upper), unname(cut$interval))
    if (covers(ball)) expect_true(covers(cut))
    if (below[s]) expect_true(covers(cut))   # the ball need not: its centre is off by the noise
  }
  expect_true(any(below))
  expect_output(print(cut), "within the bounds \\[0, 1\\]")
  # Two coordinates: the centre is projected onto the box and each interval of
  # confint() (the ball's bounding box) cut to its own bounds.
  set.seed(3)
  X <- cbind(a = rep(0, 300), b = rep(1, 300))
  g <- quiet(cr_gs(X, "mean", mu = 1, bounds = list(lower = c(0, 0), upper = c(1, 1)), mode = "wor"))
  expect_true(all(g$center >= 0 & g$center <= 1))
  ci <- confint(g)
  expect_true(all(ci[, 1] >= 0 & ci[, 2] <= 1))
  expect_equal(unname(ci), unname(cbind(pmax(g$center - g$radius, 0), pmin(g$center + g$radius, 1))))
  expect_error(cr_gs(x, "mean", mu = 1, bounds = c(0, 1), within_bounds = NA), "'within_bounds'")
  # A transformed mean has no declared range: the ball is kept.
  h <- quiet(cr_gs(runif(300), list(fun = "mean", transform = function(m) 2 * m, lipschitz = 2), mu = 1,
                   bounds = c(0, 1)))
  expect_null(h$range)
})
