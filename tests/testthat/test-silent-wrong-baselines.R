# Silent wrong answers in the front ends of the baselines and the CR functions:
# each case is an input that would otherwise give no message, a silently ignored
# argument, a NaN or an unrelated error.

# ---- clipping messages and zero radii of the one-shot confidence regions ----

test_that("cr_gs() reports how many values the declared bounds clipped, as the other front ends do", {
  set.seed(101)
  x <- runif(200, -1, 1)
  k <- sum(x < 0.5)
  expect_message(suppressWarnings(cr_gs(x, "mean", mu = 4, bounds = c(0.5, 2), B = 40)),
                 sprintf("cr_gs\\(\\): %d value\\(s\\) of 'x' lay outside the declared 'bounds' and were clipped", k))
  expect_message(suppressWarnings(cr_gs(x, "mean", mu = 4, bounds = c(0.5, 2), B = 40)),
                 "not differentially private: it is shown to you and is not stored in the result")
  # The user-estimator path counts too.
  est <- list(fun = function(z) mean(z), sensitivity = function(N) 1.5 / N)
  expect_message(suppressWarnings(cr_gs(x, est, mu = 4, bounds = c(0.5, 2), B = 20)),
                 sprintf("%d value\\(s\\) of 'x'", k))
  # Nothing clipped: no message, and the count is not stored in the result.
  fit <- expect_no_message(cr_gs(x, "mean", mu = 50, bounds = c(-1, 1), B = 40))
  expect_false(any(c("clipped", "spec") %in% names(fit)))
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

test_that("cr_dette_graw() and cr_blbquant() report clipped values", {
  set.seed(103)
  x <- runif(300, -1, 1)
  k <- sum(x > 0.25)
  expect_message(cr_dette_graw(x, "mean", mu = 4, bounds = c(-1, 0.25), B = 50),
                 sprintf("cr_dette_graw\\(\\): %d value\\(s\\) of 'x' lay outside the declared 'bounds'", k))
  expect_message(cr_blbquant(x, "mean", mu = 4, bounds = c(-1, 0.25), B = 10),
                 sprintf("cr_blbquant\\(\\): %d value\\(s\\) of 'x' lay outside the declared 'bounds'", k))
})

# ---- bounds so wide that the sensitivity overflows ----

test_that("overflowing bounds are an error naming 'bounds', not NaN or an internal error", {
  set.seed(104)
  x <- runif(100, -1, 1)
  # width^2 overflows (sqrt(sum(width^2)) = Inf): was "CR-GS release: noise scales must be finite".
  expect_error(cr_gs(x, "mean", mu = 4, bounds = c(-1e300, 1e300), B = 20), "^'bounds' must be narrow enough")
  expect_error(cr_gs(x, "mean", mu = 4, bounds = c(-1e308, 1e308), B = 20), "'bounds' must be of finite width")
  expect_error(cr_gs(x, "ustat_product", mu = 4, bounds = c(-1e200, 1e200), B = 20), "^'bounds'")
  expect_error(cr_ss(x, "ustat_product", mu = 4, delta = 1e-6, bounds = c(-1e200, 1e200), B = 20), "^'bounds'")
  expect_error(cr_dette_graw(x, "ustat_product", mu = 4, bounds = c(-1e200, 1e200), B = 20), "^'bounds'")
  expect_error(smooth_sensitivity_quantile(x, 0.5, 0.1, c(-1e308, 1e308)), "^'bounds' must be of finite width")
  # NoisyGibbs: was "the normal prior needs a finite mean ..." and "'mu' must be ...".
  expect_error(noisy_gibbs(x, family = "gaussian", sigma = 1, epsilon = 1, delta = 1e-3,
                           bounds = c(-1e300, 1e300), iterations = 50), "^'bounds' must be of finite width")
  X <- cbind(a = 1, b = runif(100))
  expect_error(noisy_gibbs(X, x, family = "linear", epsilon = 1, delta = 1e-3, bounds = c(x = 1e300, y = 1),
                           iterations = 50), "^'bounds' must be small enough")
  # DP-Bootstrap: was "NA/NaN/Inf in foreign function call" and an internal noise error.
  expect_error(dp_bootstrap(x, method = "mean", epsilon = 1, delta = 1e-3, bounds = c(-1e300, 1e300), B = 20),
               "^'bounds' must be of finite width")
  expect_error(dp_bootstrap(X, x, method = "ridge_huber", epsilon = 1, delta = 1e-3, bounds = c(x = 1e300), B = 3),
               "^'bounds' must be small enough")
})

test_that("dp_bootstrap(method = 'mean') gives a finite interval for wide but representable bounds", {
  set.seed(105)
  x <- runif(100, -1, 1)
  fit <- dp_bootstrap(x, method = "mean", epsilon = 1, delta = 1e-3, bounds = c(-1e100, 1e100), B = 30)
  expect_true(all(is.finite(fit$interval)))
  expect_lt(fit$interval[1], fit$interval[2])
})

# ---- arguments swallowed by `...` ----

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

test_that("noisy_gibbs() and dp_bootstrap() formula interfaces reject offset() terms", {
  set.seed(108)
  d <- data.frame(x = runif(100), z = runif(100))
  d$y <- 1 + d$x + rnorm(100)
  b <- list(x = c(0, 1), z = c(0, 1), .response = c(-5, 5))
  expect_error(noisy_gibbs(y ~ x + offset(z), d, family = "linear", epsilon = 1, bounds = b, iterations = 50),
               "offset\\(\\) term, which noisy_gibbs\\(\\) does not support")
  expect_error(dp_bootstrap(y ~ x + offset(z), d, epsilon = 1, bounds = b, B = 3),
               "offset\\(\\) term, which dp_bootstrap\\(\\) does not support")
})

test_that("bayesian_bootstrap() and blocked_bootstrap() reject arguments their '...' would drop", {
  set.seed(109)
  z <- cbind(1, runif(100))
  y <- drop(z %*% c(1, 2)) + rnorm(100)
  # bandwith = 0 (the check loss) was silently replaced by the default bandwidth 0.1.
  expect_error(bayesian_bootstrap(z, y, loss = "quantile", draws = 5, bandwith = 0),
               "bayesian_bootstrap\\(\\): 'bandwith' \\(did you mean 'bandwidth'\\?\\)")
  expect_error(blocked_bootstrap(z, y, loss = "huber", draws = 5, blocks = 5, huber_kapa = 1),
               "blocked_bootstrap\\(\\): 'huber_kapa' \\(did you mean 'huber_kappa'\\?\\)")
  expect_error(bayesian_bootstrap(runif(50), NULL, "mean", 10, NULL, 5), "unnamed argument")
})

# ---- permuted level vectors: each level labelled by its own fit ----

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

test_that("bayesian_bootstrap() and blocked_bootstrap() label each tau by its own fit", {
  set.seed(112)
  z <- cbind(1, runif(150))
  y <- drop(z %*% c(1, 2)) + rnorm(150)
  for (f in list(function(tau) { set.seed(3); bayesian_bootstrap(z, y, loss = "quantile", draws = 20, tau = tau) },
                 function(tau) { set.seed(3); blocked_bootstrap(z, y, loss = "quantile", draws = 20, blocks = 5,
                                                                tau = tau, partition = rep(1:5, 30)) })) {
    down <- f(c(0.9, 0.1))
    expect_equal(down$draws[, , "tau=0.9"], f(0.9)$draws)
    expect_equal(down$draws[, , "tau=0.1"], f(0.1)$draws)
    expect_gt(mean(down$draws[, 1, "tau=0.9"]), mean(down$draws[, 1, "tau=0.1"]) + 1)
  }
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
