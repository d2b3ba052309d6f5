# Timing of the NoisyGibbs and DP-Bootstrap baselines at the PGBB paper's settings
# (SM S3.2), median of 3 runs. Run with the installed package:
#   Rscript bench/bench-baselines.R
suppressPackageStartupMessages(library(pgbb))

median_of_3 <- function(expr_fn) {
  t <- vapply(1:3, function(i) system.time(expr_fn())[["elapsed"]], 0)
  c(median = median(t), min = min(t), max = max(t))
}

set.seed(2024)
n <- 10000; p <- 3
X <- matrix(runif(n * p, -1, 1), n, p, dimnames = list(NULL, paste0("x", 1:p)))
y <- drop(X %*% c(1.5, -1.5, 1)) + 0.5 * rt(n, 3)
x_gauss <- rnorm(5000, 1.5, 0.5)
x_exp <- rexp(5000, 0.5)

cases <- list(
  "NoisyGibbs linear  n=10000 p=3, 400k it" = function()
    noisy_gibbs(X, y, loss = "linear", epsilon = 1, delta = 1 / n, bounds = c(x = 1, y = 6)),
  "NoisyGibbs gaussian n=5000, 4k it" = function()
    noisy_gibbs(x_gauss, loss = "gaussian", sigma = 0.5, epsilon = 1, delta = 1 / 5000,
                bounds = c(-5, 5)),
  "NoisyGibbs expon.   n=5000, 4k it" = function()
    noisy_gibbs(x_exp, loss = "exponential", epsilon = 1, delta = 1 / 5000, bounds = c(0, 12)),
  "DP-Boot ridge Huber n=10000 p=3, B=20" = function()
    dp_bootstrap(X, y, loss = "ridge_huber", epsilon = 1, delta = 1 / n, bounds = c(x = 1)),
  "DP-Boot mean+deconv n=5000, B=1000" = function()
    dp_bootstrap(x_exp, loss = "mean", epsilon = 1, delta = 1 / 5000, bounds = c(0, 12))
)

res <- t(vapply(cases, median_of_3, c(median = 0, min = 0, max = 0)))
cat(sprintf("pgbb %s, R %s, %s\n", utils::packageVersion("pgbb"), getRversion(),
            Sys.info()[["machine"]]))
cat("elapsed seconds (median, min, max of 3 runs)\n")
print(round(res, 3))
