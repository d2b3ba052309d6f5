# R/bounds.R: one message about clipped values, with per-variable counts, from
# every front end; the count is shown to the analyst and never stored.

bnd_data <- local({
  set.seed(21)
  d <- data.frame(x = runif(200), z = runif(200))
  d$y <- d$x - d$z + rnorm(200, sd = 0.3)
  d$x[1:3] <- c(-1, 2, 5)      # 3 covariate values outside [0, 1]
  d$y[4:5] <- c(-50, 50)       # 2 responses outside [-3, 3]
  d
})
bnd_bounds <- list(x = c(0, 1), z = c(0, 1), .response = c(-3, 3))
bnd_pattern <- function(caller)
  sprintf("^%s: 5 value\\(s\\) of 'data' lay outside the declared 'bounds' and were clipped to them \\(x: 3, \\.response: 2\\)\\. This count comes from the confidential data and is not differentially private",
          caller)

test_that("the message gives the total and the per-variable counts, in one wording", {
  expect_message(pgbb:::.clip_message(c(x = 3L, z = 0L, .response = 2L), "data", "bounds", "f()"),
                 "^f\\(\\): 5 value\\(s\\) of 'data' lay outside the declared 'bounds' and were clipped to them \\(x: 3, \\.response: 2\\)")
  expect_message(pgbb:::.clip_message(4, "x", "bounds", "g()"),
                 "^g\\(\\): 4 value\\(s\\) of 'x' lay outside the declared 'bounds' and were clipped to them\\. ")
  expect_silent(pgbb:::.clip_message(c(x = 0L, .response = 0L), "data", "bounds", "f()"))
})

test_that("every formula front end reports the same counts the same way", {
  ctl <- pgbb_control(iterations = 20, hidden = 4, draws = 20, blocks = 5, runs = 2)
  expect_message(quiet_noise(pgbb(y ~ x + z, bnd_data, loss = "huber", epsilon = 4, bounds = bnd_bounds,
                                  control = ctl, progress = FALSE)), bnd_pattern("pgbb\\(\\)"))
  expect_message(dp_sgld(y ~ x + z, bnd_data, loss = "huber", epsilon = 4, bounds = bnd_bounds,
                         iterations = 50, progress = FALSE), bnd_pattern("dp_sgld\\(\\)"))
  expect_message(suppressWarnings(noisy_gibbs(y ~ x + z, bnd_data, epsilon = 4, bounds = bnd_bounds,
                                              iterations = 200)), bnd_pattern("noisy_gibbs\\(\\)"))
  expect_message(dp_bootstrap(y ~ x + z, bnd_data, epsilon = 4, bounds = bnd_bounds),
                 bnd_pattern("dp_bootstrap\\(\\)"))
})

test_that("the count is not part of the fit", {
  ctl <- pgbb_control(iterations = 20, hidden = 4, draws = 20, blocks = 5, runs = 2)
  fit <- suppressMessages(quiet_noise(pgbb(y ~ x + z, bnd_data, loss = "huber", epsilon = 4,
                                           bounds = bnd_bounds, control = ctl, progress = FALSE)))
  flat <- names(unlist(unclass(fit)[setdiff(names(fit), c("call", "terms"))]))
  expect_false(any(grepl("clipped", flat)))
})

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

test_that("cr_dette_graw() and cr_blbquant() report clipped values", {
  set.seed(103)
  x <- runif(300, -1, 1)
  k <- sum(x > 0.25)
  expect_message(cr_dette_graw(x, "mean", mu = 4, bounds = c(-1, 0.25), B = 50),
                 sprintf("cr_dette_graw\\(\\): %d value\\(s\\) of 'x' lay outside the declared 'bounds'", k))
  expect_message(cr_blbquant(x, "mean", mu = 4, bounds = c(-1, 0.25), B = 10),
                 sprintf("cr_blbquant\\(\\): %d value\\(s\\) of 'x' lay outside the declared 'bounds'", k))
})

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

test_that("named rows of x_bounds and box are matched to the columns by name, never by position", {
  set.seed(51)
  X <- cbind(a = runif(100), b = runif(100, 0, 100))
  y <- X[, 1] + rnorm(100)
  fit_with <- function(...) pgbb_fit(X, y, loss = "quantile", sigma = 0, blocks = 10, rate = 1,
                                     iterations = 20, hidden = 4, draws = 20, ...)
  # Rows in the other order: every value of b used to be clipped to a's [0, 1].
  swapped <- fit_with(box = c(-200, 200), x_bounds = rbind(b = c(0, 100), a = c(0, 1)))
  expect_equal(unname(swapped$x_bounds["b", ]), c(0, 100))
  expect_equal(unname(swapped$x_bounds["a", ]), c(0, 1))
  expect_message(fit_with(box = c(-200, 200), x_bounds = rbind(b = c(0, 100), a = c(0, 1))), NA)
  bx <- fit_with(box = rbind(b = c(-1, 1), a = c(-50, 50)), x_bounds = rbind(a = c(0, 1), b = c(0, 100)))
  expect_equal(unname(bx$box["a", ]), c(-50, 50))
  expect_equal(unname(bx$box["b", ]), c(-1, 1))
  expect_error(fit_with(box = c(-200, 200), x_bounds = rbind(a = c(0, 1), c = c(0, 100))),
               "'x_bounds' must be a matrix whose row names.*'a', 'b'")
  expect_error(fit_with(box = rbind(a = c(-1, 1), a = c(-1, 1)), x_bounds = c(0, 100)), "'box'")
  # Without row names the rows are positional, as documented.
  pos <- fit_with(box = c(-200, 200), x_bounds = rbind(c(0, 1), c(0, 100)))
  expect_equal(unname(pos$x_bounds["b", ]), c(0, 100))
  unnamed <- unname(X)
  expect_error(pgbb_fit(unnamed, y, loss = "quantile", sigma = 0, blocks = 10, rate = 1, iterations = 20,
                        hidden = 4, draws = 20, box = c(-200, 200), x_bounds = rbind(b = c(0, 100), a = c(0, 1))),
               "'x_bounds'")
})
