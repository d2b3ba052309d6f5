# The R workload of tools/valgrind.sh: one small call of every compiled entry point
# family (trainer, accountant, one-shot CRs, NoisyGibbs, DP-Bootstrap, blocked
# bootstrap, posterior draws), sized so that the run under valgrind takes
# minutes, not hours. Plain script (no testthat) so valgrind's report is about
# the package, not the test harness.
suppressPackageStartupMessages(library(pgbb))
set.seed(1)
step <- function(what, expr) {
  t0 <- proc.time()[["elapsed"]]
  force(expr)
  cat(sprintf("[valgrind-subset] %-28s ok (%.1f s)\n", what, proc.time()[["elapsed"]] - t0))
}

# Accountant: sigma from epsilon and back, RDP curve, closed form.
step("accountant", {
  s <- pgbb_sigma(epsilon = 1, delta = 1e-5, n = 1000, blocks = 10, clip = 1, rate = 0.1,
                  iterations = 50)
  e <- pgbb_epsilon(sigma = s, delta = 1e-5, n = 1000, blocks = 10, clip = 1, rate = 0.1,
                    iterations = 50)
  stopifnot(e <= 1 + 1e-6)
})

# pgbb_fit: Huber regression (private) and a grid of quantile levels.
step("pgbb_fit huber", {
  n <- 300
  x <- cbind(1, runif(n, -1, 1))
  y <- drop(x %*% c(1, 2)) + rt(n, 3) / 2
  fit <- pgbb_fit(x, y, loss = "huber", epsilon = 2,
                  box = rbind(c(-5, 5), c(-5, 5), c(0.01, 5)), x_bounds = c(-1, 1),
                  y_bounds = c(-10, 10), blocks = 10, rate = 0.2, iterations = 40,
                  hidden = c(8, 8), draws = 30)
  d <- posterior_draws(fit, 50)
  print(fit)
})
step("pgbb_fit quantile grid", {
  n <- 300
  x <- cbind(1, runif(n, -1, 1))
  y <- drop(x %*% c(1, 2)) + rnorm(n)
  fit <- pgbb_fit(x, y, loss = "quantile", tau = c(0.25, 0.5, 0.75), sigma = 0.5,
                  box = rbind(c(-5, 5), c(-5, 5)), x_bounds = c(-1, 1),
                  blocks = 10, rate = 0.5, iterations = 30, hidden = 8, draws = 20)
  posterior_draws(fit, 20, tau = 0.5)
})

# pgbb(): formula front end, confint.
step("pgbb formula", {
  d <- data.frame(x = runif(300, 0, 10))
  d$y <- 1 + 0.3 * d$x + rt(300, df = 3)
  fit <- pgbb(y ~ x, d, loss = "huber", epsilon = 2,
              bounds = list(x = c(0, 10), .response = c(-20, 25)),
              control = pgbb_control(iterations = 40, hidden = c(8, 8), draws = 30))
  print(confint(fit))
})

# One-shot confidence regions.
step("cr_gs", {
  x <- runif(500, -1, 1)
  print(cr_gs(x, "mean", mu = 4, bounds = c(-1, 1)))
  print(cr_gs(x, "mean", mu = 4, bounds = c(-1, 1), mode = "wor"))
})
step("cr_ss", {
  x <- runif(500, -1, 1)
  print(cr_ss(x, "quantile", prob = 0.5, mu = 4, delta = 1e-6, bounds = c(-1, 1), mode = "wor"))
})
step("cr baselines", {
  x <- runif(400, -1, 1)
  print(cr_dette_graw(x, mu = 4, bounds = c(-1, 1), B = 200))
  print(cr_blbquant(x, prob = 0.5, mu = 4, bounds = c(-1, 1)))
})

# NoisyGibbs: exponential family and linear regression.
step("noisy_gibbs", {
  x <- rnorm(200, 1.5, 0.5)
  print(noisy_gibbs(x, family = "gaussian", sigma = 0.5, epsilon = 1, delta = 1 / 200,
                    bounds = c(-5, 5)))
  X <- matrix(runif(600, -1, 1), ncol = 3, dimnames = list(NULL, c("x1", "x2", "x3")))
  y <- drop(X %*% c(1.5, -1.5, 1)) + rnorm(200, sd = 0.5)
  print(confint(noisy_gibbs(X, y, family = "linear", epsilon = 4, delta = 1e-3,
                            bounds = c(x = 1, y = 6), iterations = 300)))
})

# DP-Bootstrap: ridge-Huber and mean.
step("dp_bootstrap", {
  X <- matrix(runif(900, -1, 1), ncol = 3, dimnames = list(NULL, c("x1", "x2", "x3")))
  y <- drop(X %*% c(1.5, -1.5, 1)) + rnorm(300, sd = 0.5)
  print(dp_bootstrap(X, y, method = "ridge_huber", epsilon = 4, delta = 1 / 300,
                     bounds = c(x = 1)))
  print(confint(dp_bootstrap(rexp(500, 0.5), method = "mean", epsilon = 4, delta = 1 / 500,
                             bounds = c(0, 12))))
})

# Exact (blocked) Bayesian bootstrap, resampling helpers.
step("blocked bootstrap", {
  x <- rnorm(200)
  bayesian_bootstrap(x, draws = 100)
  blocked_bootstrap(x, draws = 100, blocks = 10)
  z <- cbind(1, runif(200))
  yy <- drop(z %*% c(1, 2)) + rt(200, 3)
  print(confint(blocked_bootstrap(z, yy, loss = "huber", draws = 50, blocks = 10)))
  resample_indices(200, 50, 3)
  rblock_weights(3, blocks = 10, gamma = 1)
})

cat("[valgrind-subset] done\n")
